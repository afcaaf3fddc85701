"""Endgame tablebases: the exact value of a position with few animals.

``probe(board)`` returns a ``Probe`` (``wdl``, ``dtm``, ``dtz`` and every legal
move's ``MoveValue``) or ``None`` when the position is not covered. Tables of up to
three animals are built in memory on first need and kept for the process, as the
engine builds them (``build=4`` builds a four-animal signature too, in seconds to a
minute; ``directory=`` adds table files written by ``jungle tb build``).
"""

from ._jungle import MoveValue, Probe, probe

__all__ = ["MoveValue", "Probe", "probe"]
