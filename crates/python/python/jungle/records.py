"""Game records in the format of ``jungle match --pgn`` (protocol.md, "Game
records"), as python-chess's ``chess.pgn`` has PGN: headers, moves, a comment after
any move, the result, many games to a file. The core's one reader and one writer do
the work, so a file reads here as ``jungle replay`` reads it::

    games = jungle.records.read("match.txt")        # a path or an open file
    board = games[0].board()                        # the final position, replayed
    game = jungle.records.Game.from_board(board, headers={"Red": "me", "Blue": "engine"})
    jungle.records.write([game], "mine.txt")        # or write_text([game]) -> str

Each game is replayed by the rules of its ``[Rules]`` tag (the default rules
without one) from its ``[FEN]`` tag; a file that is not a record, or a game with an
illegal move, raises ``ValueError`` that starts ``line N:``, the line it is on.
"""

import os

from . import STARTING_FEN, Board, Move
from ._jungle import read_records, write_records

__all__ = ["Game", "read", "read_text", "write", "write_text"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class Game:
    """One recorded game: ``headers`` (a dict, in the file's order), ``moves``
    (``Move``s), ``comments`` (one per move, ``None`` where there is none) and
    ``result`` (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``)."""

    def __init__(self, headers=None, moves=(), comments=None, result="*"):
        self.headers = dict(headers or {})
        self.moves = [m if isinstance(m, Move) else Move.from_uci(m) for m in moves]
        self.comments = list(comments) if comments is not None else [None] * len(self.moves)
        if len(self.comments) != len(self.moves):
            raise ValueError(f"comments: one per move ({len(self.moves)}), not {len(self.comments)}")
        if result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        self.result = result

    @property
    def rules(self):
        """The rules of its ``[Rules]`` tag (``jungle`` without one)."""
        return self.headers.get("Rules", "jungle")

    @property
    def start_fen(self):
        """The position it starts from (its ``[FEN]`` tag, else the start)."""
        return self.headers.get("FEN", STARTING_FEN)

    def board(self):
        """The game's final position as a ``Board`` (with its moves played)."""
        return Board.from_moves(self.start_fen, self.rules, [m.uci() for m in self.moves])

    @classmethod
    def from_board(cls, board, headers=None, comments=None):
        """The record of ``board``'s game: the tags ``jungle match`` writes (``Game``,
        ``Red``, ``Blue``, ``Result``, ``Termination``, ``Rules``, ``FEN``), then any
        of ``headers`` (which also replace those)."""
        outcome = board.outcome()
        tags = {"Game": "1", "Red": "?", "Blue": "?", "Result": board.result(),
                "Termination": str(outcome) if outcome else "unfinished",
                "Rules": board.rules, "FEN": board.start_fen()}
        tags.update(headers or {})
        return cls(tags, board.move_stack, comments, board.result())

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return (self.headers, self.moves, self.comments, self.result) == (
            other.headers, other.moves, other.comments, other.result)

    def __repr__(self):
        names = f"{self.headers.get('Red', '?')} vs {self.headers.get('Blue', '?')}"
        return f"<Game {names}: {len(self.moves)} moves, {self.result}>"


def read_text(text):
    """The games of a record's text (a list of ``Game``)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be text (str), not {type(text).__name__}")
    games = []
    for tags, _rules, _fen, moves, comments, result in read_records(text):
        games.append(Game(dict(tags), moves, comments, result))
    return games


def read(file):
    """The games of a record file: a path or a file open for reading."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, encoding="utf-8") as f:
            return read_text(f.read())
    return read_text(file.read())


def write_text(games):
    """The text of a record of ``games`` (``Game``s), as ``jungle match`` writes it."""
    rows = []
    for game in games:
        if not isinstance(game, Game):
            raise TypeError(f"games must be jungle.records.Game, not {type(game).__name__}")
        for key in game.headers:
            if not key or any(c in key for c in ' "[]\n\r'):
                raise ValueError(f"header {key!r}: a tag's name is one word, without quotes or brackets")
        tags = [(k, str(v)) for k, v in game.headers.items()]
        rows.append((tags, [m.uci() for m in game.moves], game.comments, game.result))
    return write_records(rows)


def write(games, file):
    """Writes a record of ``games`` to ``file``: a path or a file open for writing."""
    text = write_text(games)
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        file.write(text)
