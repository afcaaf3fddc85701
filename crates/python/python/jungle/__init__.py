"""Jungle (Dou Shou Qi): exact rules, a strong engine, tablebases and
reinforcement-learning environments, on the Rust core of the ``jungle`` engine.

The rules, as python-chess users expect them::

    import jungle
    board = jungle.Board()                      # or Board(fen, rules="jungle-cn", dog_swims=True)
    board.push(jungle.Move.from_uci("g3g4"))    # or board.push("g3g4")
    print(board, board.legal_moves, board.outcome())
    print(jungle.Engine().analyse(board, depth=10)[0])

Submodules:

- ``jungle.engine``: any engine speaking the protocol, out of process
  (``jungle.engine.EngineProcess``; this engine, or jungine with ``proto="jcei"``).
- ``jungle.tablebase``: ``probe(board)``, exact values of positions with few animals.
- ``jungle.rl``: the action encoding and the observation tensor, documented.
- ``jungle.pettingzoo_env``, ``jungle.gymnasium_env``, ``jungle.openspiel_game``:
  the learning environments (they import their libraries, which are optional).
- ``jungle.VectorEnv``: N games stepped per call in Rust on numpy arrays, in
  self-play or against an opponent (random, greedy, the engine at a level).
- ``jungle.records``: game records as ``jungle match`` writes them, read and written.
- ``jungle.pictures``: a board as SVG (``Board._repr_svg_``, for Jupyter) or as an
  RGB array (the environments' ``rgb_array`` render mode).
- ``jungle.baseline``: the baseline agent (its weights ship; training needs the
  extra ``baseline``).
"""

from typing import NamedTuple

from ._jungle import (
    BENCH_DEPTH,
    ELO_MAX,
    ELO_MIN,
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    SQUARE_NAMES,
    STARTING_FEN,
    __version__,
    Board,
    Engine,
    InfoLine,
    Move,
    Outcome,
    Piece,
    PlayResult,
    Score,
    VectorEnv,
    bench_positions,
    parse_info,
)
from ._jungle import LEVELS as _LEVEL_ROWS


class Level(NamedTuple):
    """One measured strength level of the engine (protocol.md, "Strength levels",
    has the matches that measured it)."""

    #: Its strength on the Elo scale of the measured levels (``ELO_MIN`` to ``ELO_MAX``).
    elo: int
    #: The deepest search it makes (0: no limit).
    depth: int
    #: How widely it draws its move among the good ones: the softmax temperature in
    #: centipawns (0: the best move; the weakest rows play as a beginner instead).
    temperature: int


#: The engine's strength levels, weakest first; the last is full strength.
#: ``Engine(elo=e)`` plays at the row of ``e``; between two rows each game (from
#: ``new_game()``) draws one of them, the stronger with a chance that grows as ``e``
#: nears it.
LEVELS = tuple(Level(*row) for row in _LEVEL_ROWS)

RED = "red"
BLUE = "blue"
COLORS = (RED, BLUE)
ANIMALS = ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")
RULE_SETS = ("jungle", "jungle-cn")

#: Squares by number, ``a1 = 0`` … ``g9 = 62`` (file + 7 × rank).
SQUARES = tuple(range(len(SQUARE_NAMES)))


def square_name(square: int) -> str:
    """The name of a square number (``0`` -> ``"a1"``)."""
    if not isinstance(square, int) or not 0 <= square < len(SQUARE_NAMES):
        raise ValueError(f"square {square!r} is off the board (0 = a1 to 62 = g9)")
    return SQUARE_NAMES[square]


def parse_square(name: str) -> int:
    """The number of a square name (``"a1"`` -> ``0``)."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"'{name}' is not a square (files a-g, ranks 1-9)") from None


__all__ = [
    "__version__",
    "ANIMALS",
    "BENCH_DEPTH",
    "BLUE",
    "Board",
    "COLORS",
    "ELO_MAX",
    "ELO_MIN",
    "Engine",
    "InfoLine",
    "LEVELS",
    "Level",
    "Move",
    "NUM_ACTIONS",
    "OBSERVATION_SHAPE",
    "Outcome",
    "Piece",
    "PlayResult",
    "RED",
    "RULE_SETS",
    "SQUARES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "Score",
    "VectorEnv",
    "bench_positions",
    "parse_info",
    "parse_square",
    "square_name",
]
