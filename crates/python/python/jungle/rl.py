"""The one action encoding and the one observation tensor of every learning
environment of the package (PettingZoo, Gymnasium, OpenSpiel, ``VectorEnv``).

**Actions** (``NUM_ACTIONS = 252``). A move is its from-square and its direction::

    action = from_square * 4 + direction

Squares are numbered ``a1 = 0, b1 = 1, …, g1 = 6, a2 = 7, …, g9 = 62`` (file + 7 ×
rank); directions are 0 north (towards rank 9), 1 east (towards file g), 2 south,
3 west. A lion's or tiger's river jump is the move in its direction (``b3b7`` is
``b3`` north), so every move has exactly one action and no action stands for two
moves. Most actions are illegal in any position; ``Board.legal_action_mask()``
(``bool[252]``) says which are legal, and ``Board.action_to_move(a)`` /
``Move.action`` convert.

**Observation** (``float32[32, 9, 7]``, indexed ``[plane, rank - 1, file]``), from a
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
23      occurrences of this position so far (this one too) / the repetition draw's
        count (0 when the rule is off), at most 1
24-27   the legal moves by direction (north, east, south, west): 1 on the
        from-square of each; ``obs[24:28]`` is the legal-action mask as
        ``[direction, square]`` (``mask.reshape(63, 4).T``)
28-31   the same for the legal moves that end the game in a draw at once (the
        third occurrence of a position, the no-capture limit reached)
======  ==================================================================

Planes 22-31 carry what the position alone does not and the game's history does, so
that the observation decides the legal moves (the anti-chase rules of ``jungle-cn``
included, which forbid moves by what was played before) and which of them end the
game in a draw at once; whether a move wins at once (it enters the den, takes the
last animal, or leaves the opponent no move) the placement shows, except that under
the anti-chase rules the opponent's own history may leave it without a move (its
next observation shows that). A finished game shows no legal moves. Two games that
reach one position by different moves get different observations whenever their
legal moves, their drawing moves, their repetitions or their no-capture counts
differ.

**From the side to move** (``perspective="side_to_move"``, everywhere: ``Board``,
``VectorEnv``, and the PettingZoo, Gymnasium and OpenSpiel environments): when the
player the observation is for is Blue, the board is seen turned half round (square
``s`` as ``62 - s``, so the player's den is at d1), the colours' planes are swapped
(planes 0-7 the player's animals, 17 and 19 its traps and den), and actions are seen
the same way (from-square ``62 - s``, direction ``(d + 2) % 4``), in the masks and in
planes 24-31 too. Plane 21 still says which colour is to move.
"""

from ._jungle import NUM_ACTIONS, OBSERVATION_SHAPE, SQUARE_NAMES

DIRECTIONS = ("north", "east", "south", "west")

OBSERVATION_PLANES = (
    tuple(f"red {a}" for a in ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant"))
    + tuple(f"blue {a}" for a in ("rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant"))
    + ("water", "red traps", "blue traps", "red den", "blue den", "red to move", "no-capture count",
       "repetitions")
    + tuple(f"legal {d}" for d in ("north", "east", "south", "west"))
    + tuple(f"draw {d}" for d in ("north", "east", "south", "west"))
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
