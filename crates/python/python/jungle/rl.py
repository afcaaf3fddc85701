"""The one action encoding and the one observation tensor of every learning
environment of the package (PettingZoo, Gymnasium, OpenSpiel, ``VectorEnv``).

**Actions** (``NUM_ACTIONS = 252``). A move is its from-square and its direction::

    action = from_square * 4 + direction

Squares are numbered ``a1 = 0, b1 = 1, …, g1 = 6, a2 = 7, …, g9 = 62`` (file + 7 ×
rank); directions are 0 north (towards rank 9), 1 east (towards file g), 2 south,
3 west. A lion's or tiger's river jump is the move in its direction (``d3d7`` is
``d3`` north), so every move has exactly one action and no action stands for two
moves. Most actions are illegal in any position; ``Board.legal_action_mask()``
(``bool[252]``) says which are legal, and ``Board.action_to_move(a)`` /
``Move.action`` convert.

**Observation** (``float32[23, 9, 7]``, indexed ``[plane, rank - 1, file]``), from a
fixed point of view (Red's side at rank 1), whoever is to move:

======  ==================================================================
plane   content
======  ==================================================================
0-7     Red's rat, cat, dog, wolf, leopard, tiger, lion, elephant (1 where it stands)
8-15    Blue's animals in the same order
16      water
17, 18  Red's traps, Blue's traps
19, 20  Red's den, Blue's den
21      all ones when Red is to move
22      plies since the last capture / the no-capture draw limit (100 when off), at most 1
======  ==================================================================

**From the side to move** (``VectorEnv(perspective="side_to_move")`` and
``JungleVectorEnv``): when Blue is to move, the board is seen turned half round
(square ``s`` as ``62 - s``, so the mover's den is at d1), the colours' planes are
swapped (planes 0-7 the mover's animals, 17 and 19 the mover's trap and den), and
actions are seen the same way (from-square ``62 - s``, direction ``(d + 2) % 4``), in
the masks too. Plane 21 still says which colour is to move.
"""

from ._jungle import NUM_ACTIONS, OBSERVATION_SHAPE, SQUARE_NAMES

DIRECTIONS = ("north", "east", "south", "west")

OBSERVATION_PLANES = (
    tuple(f"red {a}" for a in ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant"))
    + tuple(f"blue {a}" for a in ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant"))
    + ("water", "red traps", "blue traps", "red den", "blue den", "red to move", "no-capture count")
)
assert len(OBSERVATION_PLANES) == OBSERVATION_SHAPE[0]


def action_of(from_square: int, direction: int) -> int:
    """The action of a from-square (0-62) and a direction (0-3)."""
    if not 0 <= from_square < len(SQUARE_NAMES) or not 0 <= direction < 4:
        raise ValueError(f"no action for square {from_square} and direction {direction}")
    return from_square * 4 + direction


def describe_action(action: int) -> str:
    """``"g3 north"`` for an action number."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} is not one of 0-{NUM_ACTIONS - 1}")
    return f"{SQUARE_NAMES[action // 4]} {DIRECTIONS[action % 4]}"


__all__ = [
    "DIRECTIONS",
    "NUM_ACTIONS",
    "OBSERVATION_PLANES",
    "OBSERVATION_SHAPE",
    "action_of",
    "describe_action",
]
