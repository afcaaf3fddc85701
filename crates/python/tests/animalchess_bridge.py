"""The pure-Python `animalchess` package (PyPI, 0.0.4) beside this package: a
position of ours as its board, its legal moves in our notation, and where its
rules differ from ours (protocol.md's), found by reading its code:

- ``own_trap_immunity``: an animal standing on one of its own side's traps cannot
  be taken at all there (ours: taken by rank as anywhere else);
- ``rat_from_water``: a rat in the water takes an elephant or a rat on land (ours:
  a rat in water takes nothing on land);
- ``rat_into_water``: a rat on land takes a rat in the water (ours: nothing on land
  takes a rat in water);
- ``upward_jump_over_rat``: a lion or tiger jumping the river from rank 3 to rank 7
  is never blocked by a rat in the water (its blocking check walks the wrong way;
  the other jumps are blocked as ours).

It has no draws, no move-less loss, no variants and no anti-chase rules, so only
the standard move rules are compared. Its start position is ours mirrored left to
right, which does not matter here: positions are given square by square.
"""

import warnings

from loguru import logger

from animalchess.chess.board import AnimalChessBoard, PlayerPossession
from animalchess.chess.player import Player
from animalchess.chess.utils import AnimalType

import jungle

logger.remove()  # it logs every move it plays

WATER = {r * 7 + f for r in range(3, 6) for f in (1, 2, 4, 5)}
TRAPS = {"red": {2, 4, 10}, "blue": {58, 60, 52}}


def to_animalchess(board):
    """(its board, the player id to move) for our position."""
    players = [Player("red"), Player("blue")]
    possessions = [PlayerPossession(players[0], 0, reset=False), PlayerPossession(players[1], 1, reset=False)]
    for square, piece in board.piece_map().items():
        rank, file = divmod(square, 7)
        side = 0 if piece.color == "red" else 1
        possessions[side].set_piece_info(AnimalType[piece.animal.upper()], (rank, file))
    return AnimalChessBoard(players[0], players[1], possessions), (0 if board.turn == "red" else 1)


def its_moves(board):
    """The legal moves animalchess finds in our position, as our moves' text."""
    theirs, player = to_animalchess(board)
    moves = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for info in list(theirs._players_possessions[player].iterate_living_pieces()):
            fr, ff = info.position
            for tr, tf in theirs.exhaustively_iterate_available_destinations(player, info.piece.animal_type):
                moves.add(jungle.SQUARE_NAMES[fr * 7 + ff] + jungle.SQUARE_NAMES[tr * 7 + tf])
    return moves


def difference_kind(board, text):
    """Which known rule difference explains a move one side allows and the other
    does not, or None."""
    move = jungle.Move.from_uci(text)
    mover = board.piece_at(move.from_square)
    target = board.piece_at(move.to_square)
    if mover is None:
        return None
    if target is not None and target.color != mover.color and move.to_square in TRAPS[target.color]:
        return "own_trap_immunity"
    if mover.animal == "rat" and target is not None and target.color != mover.color:
        if move.from_square in WATER and move.to_square not in WATER:
            return "rat_from_water"
        if move.from_square not in WATER and move.to_square in WATER:
            return "rat_into_water"
    if mover.animal in ("lion", "tiger") and move.to_square - move.from_square == 28:
        between = (move.from_square + 7 * k for k in (1, 2, 3))
        if any(board.piece_at(s) is not None and board.piece_at(s).animal == "rat" for s in between):
            return "upward_jump_over_rat"
    return None
