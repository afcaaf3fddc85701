#!/usr/bin/env python3
"""Lets `jungle match` play AnimalcraftAI.

AnimalcraftAI (github.com/WZ403809264/AnimalcraftAI, V1.7; built by build.sh next to
this file) speaks its own UCCI-like dialect on a board turned a quarter: 9 files
`a`-`i` from Red's den to Blue's and 7 ranks `0`-`6`, `M` for the rat, no counters in
its position strings (README.md next to this file). This adapter speaks this
project's UCI dialect (protocol.md, section 3) on stdin/stdout and drives the engine
as a child process, translating positions and moves both ways:

    ~/venvs/jungle/bin/python adapter.py --engine DIR/animalcraft-engine [--depth N]

It keeps the game itself with this project's rules (`jungle` or `jungle-cn`, option
`UCI_Variant`), taken from this project's Python package (`jungle.Board`), so it
answers `isready` and `stop` at once, sends the engine only the last moves of the
game (its line buffer is 1 KB), and tells it (`banmoves`) which of the moves it could
play are illegal under our rules. Time is managed here: the engine looks at the clock
only between iterations, so the adapter answers with the best move of the last
finished iteration when the time is up, and lets the engine stop after that
iteration. stdout carries the protocol only; logs go to stderr.

Python 3.11 and the `jungle` package (crates/python), installed in a virtual
environment: `python3 -m venv ~/venvs/jungle && ~/venvs/jungle/bin/pip install
./crates/python`.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

try:
    import jungle
except ImportError as e:
    print(
        f"adapter.py: cannot import the jungle package ({e}); install it in a venv and run "
        "the adapter with that venv's python: python3 -m venv ~/venvs/jungle && "
        "~/venvs/jungle/bin/pip install ./crates/python",
        file=sys.stderr,
    )
    raise SystemExit(2)

log = logging.getLogger("animalcraft")

# --- This project's board notation (protocol.md, sections 1 and 2) ---------------

WIDTH, HEIGHT = 7, 9
FILES = "abcdefg"
START_FEN = jungle.STARTING_FEN
RED, BLUE = "r", "b"


def square(file: int, rank: int) -> int:
    """Square index from 0-based file and rank: a1 = 0, g1 = 6, g9 = 62."""
    return rank * WIDTH + file


def square_name(sq: int) -> str:
    return f"{FILES[sq % WIDTH]}{sq // WIDTH + 1}"


def parse_square(text: str) -> int | None:
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456789":
        return None
    return square(FILES.index(text[0]), int(text[1]) - 1)


def parse_move(text: str) -> tuple[int, int] | None:
    """`g3g4` -> (from, to); None when it is not two squares."""
    if len(text) != 4:
        return None
    a, b = parse_square(text[:2]), parse_square(text[2:])
    if a is None or b is None:
        return None
    return a, b


def move_name(mv: tuple[int, int]) -> str:
    return square_name(mv[0]) + square_name(mv[1])


def owner(piece: str) -> str:
    return RED if piece.isupper() else BLUE


def placement(fen: str) -> list[str | None]:
    """The 63 squares of a position string that `jungle.Board` wrote (so already
    checked): None or an animal letter (upper case Red)."""
    board: list[str | None] = [None] * (WIDTH * HEIGHT)
    for i, row in enumerate(fen.split()[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[square(file, HEIGHT - 1 - i)] = ch
                file += 1
    return board


def _run_length(cells) -> str:
    out, empty = "", 0
    for p in cells:
        if p is None:
            empty += 1
            continue
        if empty:
            out += str(empty)
            empty = 0
        out += p
    return out + (str(empty) if empty else "")


# --- The game, by this project's rules (`jungle.Board`) ----------------------------


class Game:
    """A game from a start position under `jungle` or `jungle-cn` (its anti-chase rules
    read the moves played), kept by `jungle.Board`, with the position string after each
    ply (the engine is sent an earlier one). The referee judges draws: the board has
    none, so the game ends only in a den, with no animals or with no moves."""

    def __init__(self, fen: str = START_FEN, variant: str = "jungle"):
        """ValueError names what is wrong with the position string."""
        self.board = jungle.Board(fen, rules=variant, no_capture_plies=0, repetitions=0)
        self.fens = [self.board.fen()]
        self.moves: list[str] = []

    @property
    def variant(self) -> str:
        return self.board.variant

    @property
    def fen(self) -> str:
        return self.fens[-1]

    @property
    def side(self) -> str:
        return RED if self.board.turn == "red" else BLUE

    def copy(self) -> Game:
        game = Game.__new__(Game)
        game.board, game.fens, game.moves = self.board.copy(), list(self.fens), list(self.moves)
        return game

    def legal_moves(self) -> list[str]:
        if self.board.is_game_over():
            return []
        return [m.uci() for m in self.board.legal_moves]

    def play(self, move: str) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"illegal move '{move}' in {self.fen}")
        self.board.push_uci(move)
        self.fens.append(self.board.fen())
        self.moves.append(move)


# --- AnimalcraftAI's board -------------------------------------------------------
#
# Its board lies across: its files `a`-`i` run from Red's den to Blue's (our ranks
# 1-9) and its ranks `0`-`6` are our files a-g. Its square `c6` is our g3. Animals
# as ours, but the rat is `M`/`m` (mouse). Its position strings list its ranks 0-6
# (our files a-g), each from its file a to i (our ranks 1 to 9), then the side `r`/`b`,
# without counters.


def engine_square(sq: int) -> str:
    return f"{chr(ord('a') + sq // WIDTH)}{sq % WIDTH}"


def from_engine_square(text: str) -> int | None:
    if len(text) != 2 or not "a" <= text[0] <= "i" or not "0" <= text[1] <= "6":
        return None
    return square(int(text[1]), ord(text[0]) - ord("a"))


def move_to_engine(move: str) -> str:
    """Our `g3g4` -> the engine's `c6d6`. Raises ValueError on a malformed move."""
    mv = parse_move(move)
    if mv is None:
        raise ValueError(f"not a move: '{move}'")
    return engine_square(mv[0]) + engine_square(mv[1])


def move_from_engine(text: str) -> str | None:
    """The engine's `c6d6` -> our `g3g4`; None when it is not two of its squares."""
    if len(text) != 4:
        return None
    a, b = from_engine_square(text[:2]), from_engine_square(text[2:])
    if a is None or b is None:
        return None
    return square_name(a) + square_name(b)


def to_engine_fen(fen: str) -> str:
    """Our position string (as `jungle.Board` writes it) -> the engine's `placement
    side` (it has no counters)."""
    board = placement(fen)
    rows = []
    for file in range(WIDTH):
        cells = (board[square(file, rank)] for rank in range(HEIGHT))
        rows.append(_run_length({"R": "M", "r": "m"}.get(p, p) if p else None for p in cells))
    return f"{'/'.join(rows)} {fen.split()[1]}"


def from_engine_fen(text: str) -> str:
    """The engine's `placement side` -> our position string (counters 0 and 1),
    checked by `jungle.Board`; ValueError names what is wrong."""
    fields = text.split()
    if len(fields) != 2:
        raise ValueError("an engine position string is a placement and a side")
    rows = fields[0].split("/")
    if len(rows) != WIDTH:
        raise ValueError(f"{len(rows)} engine ranks, not 7")
    cells = [[None] * WIDTH for _ in range(HEIGHT)]  # [rank][file]
    for file, row in enumerate(rows):
        rank = 0
        for ch in row:
            if ch.isdigit():
                rank += int(ch)
            else:
                if rank >= HEIGHT or ch.lower() not in "eltpwdcm":
                    raise ValueError(f"bad engine rank '{row}'")
                cells[rank][file] = {"M": "R", "m": "r"}.get(ch, ch)
                rank += 1
        if rank != HEIGHT:
            raise ValueError(f"engine rank '{row}' is not 9 squares long")
    ours = "/".join(_run_length(cells[r]) for r in range(HEIGHT - 1, -1, -1))
    return jungle.Board(f"{ours} {fields[1]}").fen()


# The squares AnimalcraftAI's moves need (the same on both boards, in our numbering).
WATER = frozenset(square(f, r) for f in (1, 2, 4, 5) for r in (3, 4, 5))
DEN = {RED: square(3, 0), BLUE: square(3, 8)}
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _neighbour(sq: int, df: int, dr: int) -> int | None:
    f, r = sq % WIDTH + df, sq // WIDTH + dr
    if 0 <= f < WIDTH and 0 <= r < HEIGHT:
        return square(f, r)
    return None


def engine_candidates(fen: str) -> list[str]:
    """Every move AnimalcraftAI could think legal for the side to move (a superset of
    its move generator: steps and river jumps onto anything but its own animals and
    den, whatever is in the water or on the target), as our move texts."""
    board, side = placement(fen), fen.split()[1]
    out = []
    for sq, p in enumerate(board):
        if p is None or owner(p) != side:
            continue
        for df, dr in STEPS:
            t = _neighbour(sq, df, dr)
            if t is not None and t in WATER and p.lower() in "lt" and sq not in WATER:
                while t is not None and t in WATER:
                    t = _neighbour(t, df, dr)
            elif t is not None and t in WATER and p.lower() != "r":
                continue
            if t is None or t == DEN[side]:
                continue
            if board[t] is not None and owner(board[t]) == side:
                continue
            out.append(move_name((sq, t)))
    return out


HISTORY_SENT = 40  # plies: the engine's anti-chase rules look back 35


def engine_position_line(game: Game) -> str:
    """The engine's `fen … moves …` line for the game: the position HISTORY_SENT plies
    back and the moves since (its input line holds 1023 bytes)."""
    k = max(0, len(game.moves) - HISTORY_SENT)
    line = "fen " + to_engine_fen(game.fens[k])
    if game.moves[k:]:
        line += " moves " + " ".join(move_to_engine(m) for m in game.moves[k:])
    return line


def engine_bans(game: Game) -> list[str]:
    """The engine's moves (its notation) that our rules forbid now."""
    legal = set(game.legal_moves())
    return [move_to_engine(m) for m in engine_candidates(game.fen) if m not in legal]


MATE, WIN = 10000, 9900  # the engine's MATE_VALUE and WIN_VALUE


def score_text(score: int) -> str:
    """The engine's score (its own units, about 300 an elephant; mate at 10000 less the
    plies) as a UCI score."""
    if score > WIN:
        return f"mate {(MATE - score + 1) // 2}"
    if score < -WIN:
        return f"mate -{max(1, (MATE + score) // 2)}"
    return f"cp {score}"


# --- The protocol -----------------------------------------------------------------


@dataclass
class Option:
    name: str
    kind: str  # spin, check, combo
    default: object
    low: int = 0
    high: int = 0
    values: tuple = ()

    def declaration(self) -> str:
        d = str(self.default).lower() if self.kind == "check" else self.default
        text = f"option name {self.name} type {self.kind} default {d}"
        if self.kind == "spin":
            text += f" min {self.low} max {self.high}"
        for v in self.values:
            text += f" var {v}"
        return text

    def parse(self, value: str | None):
        if value is None or not value.strip():
            raise ValueError(f"option {self.name} needs a value")
        v = value.strip()
        if self.kind == "spin":
            if not re.fullmatch(r"[+-]?\d+", v) or not self.low <= int(v) <= self.high:
                raise ValueError(
                    f"option {self.name} takes a whole number from {self.low} to {self.high}, got '{v}'"
                )
            return int(v)
        if self.kind == "check":
            if v.lower() not in ("true", "false"):
                raise ValueError(f"option {self.name} takes true or false, got '{v}'")
            return v.lower() == "true"
        match = [x for x in self.values if x.lower() == v.lower()]
        if not match:
            raise ValueError(f"option {self.name} takes {' or '.join(self.values)}, got '{v}'")
        return match[0]


OPTIONS = [
    Option("Depth", "spin", 0, 0, 100),
    Option("Move Overhead", "spin", 50, 0, 5000),
    Option("UCI_Variant", "combo", "jungle", values=("jungle", "jungle-cn")),
    Option("DogSwims", "check", False),
    Option("TrappedLoseAttack", "check", False),
    Option("NoCaptureDrawPlies", "spin", 100, 0, 1000),
    Option("RepetitionDraw", "spin", 3, 0, 10),
]


@dataclass
class Limits:
    depth: int | None = None
    movetime: int | None = None
    time: dict = field(default_factory=dict)  # side -> ms
    inc: dict = field(default_factory=dict)
    movestogo: int | None = None
    infinite: bool = False
    nodes: int | None = None


def parse_go(tokens: list[str]) -> Limits:
    """`go` parameters (protocol.md, section 3); ValueError names what is wrong."""
    limits = Limits()
    numeric = {"depth", "movetime", "wtime", "rtime", "btime", "winc", "rinc", "binc", "movestogo", "nodes"}
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "infinite":
            limits.infinite = True
            i += 1
            continue
        if t in ("ponder", "mate", "searchmoves"):
            raise ValueError(f"go {t} is not supported by the AnimalcraftAI adapter")
        if t not in numeric:
            raise ValueError(f"unknown go parameter '{t}'")
        if i + 1 >= len(tokens) or not tokens[i + 1].isdigit():
            raise ValueError(f"go {t} needs a whole number")
        v = int(tokens[i + 1])
        if t == "depth":
            if not 1 <= v <= 100:
                raise ValueError(f"go depth takes 1 to 100 (the engine's deepest), got {v}")
            limits.depth = v
        elif t == "movetime":
            limits.movetime = v
        elif t in ("wtime", "rtime", "btime"):
            limits.time[BLUE if t == "btime" else RED] = v
        elif t in ("winc", "rinc", "binc"):
            limits.inc[BLUE if t == "binc" else RED] = v
        elif t == "movestogo":
            limits.movestogo = max(1, v)
        else:
            limits.nodes = v
        i += 2
    return limits


@dataclass
class Search:
    """The search the referee is waiting for."""

    started: float
    deadline: float | None  # when to answer with the best move so far
    last_resort: float | None  # with no iteration finished, wait for one until then
    target_depth: int | None  # answer once an iteration of this depth is done
    infinite: bool
    legal: list
    best: str | None = None  # first move of the last finished iteration's PV
    best_depth: int = 0
    pending_info: str | None = None


def _prctl():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux
        return None


_PRCTL = _prctl()  # looked up here: the child between fork and exec only calls it


def _die_with_parent() -> None:
    """In the child: Linux kills it when the adapter dies (a referee may kill the
    adapter; the engine would otherwise search on until its iteration ends)."""
    if _PRCTL is not None:
        _PRCTL(1, 9)  # PR_SET_PDEATHSIG, SIGKILL


class Engine:
    """The AnimalcraftAI process; its lines arrive on the adapter's event queue."""

    def __init__(self, path: str, events: queue.Queue, generation: int):
        self.generation = generation
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        self.busy = False  # a `go` was sent and its `bestmove` has not come
        self.stale = False  # nobody waits for that `bestmove`
        threading.Thread(target=self._read, args=(events,), daemon=True).start()
        self.send("ucci")

    def _read(self, events: queue.Queue) -> None:
        for raw in self.proc.stdout:
            events.put(("engine", self.generation, raw.decode("latin-1").rstrip("\r\n")))
        events.put(("engine-eof", self.generation, None))

    def send(self, line: str) -> None:
        log.debug("to engine: %s", line)
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except OSError as e:
            log.warning("engine input closed (%s)", e)

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired) as e:
            log.warning("could not end the engine: %s", e)


INFO_PV = re.compile(r"^info depth (\d+) score (-?\d+) pv(.*)$")
INFO_TIME = re.compile(r"^info time (-?\d+) nodes (-?\d+)$")


class Adapter:
    def __init__(self, engine_path: str, depth: int, out=None):
        self.engine_path = engine_path
        self.out = out or sys.stdout
        self.events: queue.Queue = queue.Queue()
        self.options = {o.name.lower(): o.default for o in OPTIONS}
        self.options["depth"] = depth
        self.game = Game()
        self.search: Search | None = None
        self.pending_go: tuple | None = None  # (limits, received, give up waiting at)
        self.generation = 0
        self.engine = self._start_engine()

    # -- output --

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.say(f"info string error: {text}")

    # -- the engine process --

    def _start_engine(self) -> Engine:
        self.generation += 1
        try:
            return Engine(self.engine_path, self.events, self.generation)
        except OSError as e:
            log.error("cannot start the engine %s: %s", self.engine_path, e)
            raise SystemExit(1)

    def restart_engine(self, why: str) -> None:
        log.warning("restarting the engine: %s", why)
        self.engine.kill()
        self.engine = self._start_engine()

    def wait_for_engine(self, timeout: float = 10.0) -> None:
        """At start: the engine's handshake (`ucciok`) and a search to depth 1 (its
        first `go` clears 768 MB of fresh memory, 0.4 s, later ones take 20 ms), or
        exit with an error."""
        end = time.monotonic() + timeout
        for expected in ("ucciok", "bestmove"):
            if expected == "bestmove":
                self.engine.send("go depth 1")
            while True:
                try:
                    kind, gen, line = self.events.get(timeout=max(0.0, end - time.monotonic()))
                except queue.Empty:
                    log.error("the engine did not answer %s within %.0f s", expected, timeout)
                    raise SystemExit(1)
                if kind == "engine-eof":
                    log.error("the engine %s ended at start", self.engine_path)
                    raise SystemExit(1)
                log.debug("engine: %s", line)
                if line.startswith(expected):
                    break

    # -- the main loop --

    def run(self, stdin) -> None:
        threading.Thread(target=self._read_stdin, args=(stdin,), daemon=True).start()
        while True:
            try:
                kind, gen, line = self.events.get(timeout=self._next_timeout())
            except queue.Empty:
                self.on_timeout()
                continue
            self.on_timeout()  # a deadline that passed comes before this event
            try:
                if kind == "stdin":
                    if not self.command(line, gen):
                        return
                elif kind == "stdin-eof":
                    self.quit()
                    return
                elif gen == self.engine.generation:
                    if kind == "engine":
                        self.engine_line(line)
                    else:
                        self.engine_died()
            except Exception as e:  # a bug here must not leave the referee hanging
                log.exception("adapter error on %s %r", kind, line)
                self.error(f"adapter: {e}")
                if self.search:
                    self.finish(self.search.best or self.search.legal[0])

    def _read_stdin(self, stdin) -> None:
        for raw in stdin:
            # The generation field carries the time the line came (a go's clock starts then).
            self.events.put(("stdin", time.monotonic(), raw.decode("utf-8", "replace").strip()))
        self.events.put(("stdin-eof", 0, None))

    def _next_timeout(self) -> float | None:
        times = []
        if self.search and self.search.deadline is not None:
            times.append(self.search.deadline)
        if self.pending_go:
            times.append(self.pending_go[2])
        if not times:
            return None
        return max(0.0, min(times) - time.monotonic())

    def on_timeout(self) -> None:
        now = time.monotonic()
        if self.pending_go and now >= self.pending_go[2]:
            self.restart_engine("its previous search did not stop in time")
            self.start_pending()
        s = self.search
        if s and s.deadline is not None and now >= s.deadline:
            if s.best is None and s.last_resort is not None and now < s.last_resort:
                log.warning("time is up before the engine's first iteration ended: waiting for it")
                s.deadline, s.target_depth = s.last_resort, 1
            else:
                self.answer_now("time is up")

    # -- commands from the referee --

    def command(self, line: str, received: float | None = None) -> bool:
        """One protocol line (read at time `received`); False after `quit`."""
        tokens = line.split()
        if not tokens:
            return True
        name, args = tokens[0], tokens[1:]
        log.debug("command: %s", line)
        if name == "uci":
            self.say("id name AnimalcraftAI 1.7 (adapter)")
            self.say("id author WZ403809264 (engine), the jungle project (adapter)")
            for o in OPTIONS:
                self.say(o.declaration())
            self.say("uciok")
        elif name == "isready":
            self.say("readyok")
        elif name == "ucinewgame":
            if self.search:
                self.error("ucinewgame refused while searching")
            else:
                self.game = Game(START_FEN, self.options["uci_variant"])
        elif name == "setoption":
            self.setoption(line)
        elif name == "position":
            self.position(args)
        elif name == "go":
            self.go(args, time.monotonic() if received is None else received)
        elif name == "stop":
            if self.search:
                self.answer_now("stop")
            self.drop_pending("stop")
        elif name == "ponderhit":
            pass
        elif name == "quit":
            self.quit()
            return False
        else:
            self.error(f"unknown command '{name}'")
        return True

    def setoption(self, line: str) -> None:
        m = re.fullmatch(r"setoption\s+name\s+(.+?)(?:\s+value(?:\s+(.*))?)?", line.strip())
        if not m:
            self.error("setoption needs: setoption name <Name> value <v>")
            return
        if self.search:
            self.error("setoption refused while searching")
            return
        name, value = m.group(1).strip(), m.group(2)
        option = next((o for o in OPTIONS if o.name.lower() == name.lower()), None)
        if option is None:
            self.error(f"unknown option '{name}'")
            return
        try:
            v = option.parse(value)
        except ValueError as e:
            self.error(str(e))
            return
        if option.name in ("DogSwims", "TrappedLoseAttack") and v:
            self.error(f"option {option.name}: AnimalcraftAI cannot play by that rule")
            return
        self.options[option.name.lower()] = v
        if option.name == "UCI_Variant":
            self.game = Game(START_FEN, v)
        if option.name in ("NoCaptureDrawPlies", "RepetitionDraw"):
            log.info("%s %s: the referee judges draws; AnimalcraftAI knows none", option.name, v)

    def position(self, args: list[str]) -> None:
        if not args or args[0] not in ("startpos", "fen"):
            self.error("position needs startpos or fen")
            return
        moves_at = args.index("moves") if "moves" in args else len(args)
        if args[0] == "startpos":
            if moves_at != 1:
                self.error(f"unexpected '{args[1]}' after startpos")
                return
            fen = START_FEN
        else:
            fen = " ".join(args[1:moves_at])
        moves = args[moves_at + 1 :]
        try:
            game = Game(fen, self.options["uci_variant"])
            # The referee sends the whole game before every move: play only the new
            # moves when the game so far is the start of it.
            if (
                self.game.fens[0] == game.fens[0]
                and self.game.variant == game.variant
                and moves[: len(self.game.moves)] == self.game.moves
            ):
                game = self.game.copy()
            for m in moves[len(game.moves) :]:
                game.play(m)
        except ValueError as e:
            self.error(f"position refused: {e}")
            return
        self.game = game

    def go(self, args: list[str], received: float) -> None:
        if self.search:
            self.error("go refused: a search is running")
            return
        try:
            limits = parse_go(args)
        except ValueError as e:
            self.error(str(e))
            return
        if limits.nodes is not None and not self.options["depth"]:
            self.error(
                "go nodes refused: AnimalcraftAI has no node limit "
                "(use depth, movetime or a clock, or set option Depth)"
            )
            return
        legal = self.game.legal_moves()
        if not legal:
            self.say("bestmove 0000")
            return
        if self.engine.busy:
            # The last search is finishing the iteration it was in (it started it
            # early enough to end near the last deadline): wait for it, then restart
            # the engine (a new one is slow to clear its hash table the first time).
            wait = 2.0
            budget = self.budget(limits)
            if budget is not None:
                wait = min(wait, max(budget[1], 0.5))
            self.pending_go = (limits, received, received + wait)
            return
        self.start(limits, received)

    def start_pending(self) -> None:
        if self.pending_go:
            limits, received, _ = self.pending_go
            self.pending_go = None
            self.start(limits, received)

    def budget(self, limits: Limits) -> tuple[int, float, float] | None:
        """(the engine's `go time` in ms, the adapter's deadline and its last resort
        in s after `go`), or None when there is no time limit. Past the deadline,
        before the engine's first iteration has ended (it clears its hash table
        first), the adapter waits for that iteration until the last resort: a late
        answer rather than a blind one."""
        overhead = self.options["move overhead"]
        if limits.movetime is not None:
            usable = max(1, limits.movetime - overhead)
            # An iteration takes about as long as all before it: start one only in
            # the first half. `jungle match` waits 5 s past the movetime.
            return max(1, usable // 2), usable / 1000, (limits.movetime + 2000) / 1000
        own = limits.time.get(self.game.side)
        if own is None:
            return None
        inc = limits.inc.get(self.game.side, 0)
        usable = max(1, own - overhead)
        optimum = min(usable / (limits.movestogo or 30) + 0.75 * inc, usable)
        if limits.movestogo == 1:
            optimum = 0.9 * usable
        hard = min(3 * optimum, max(optimum, usable / 4), usable)
        return max(1, int(optimum * 0.6)), hard / 1000, max(hard, usable / 2) / 1000

    def start(self, limits: Limits, received: float) -> None:
        fixed = self.options["depth"]
        deadline = last_resort = None
        target = None
        if fixed:
            command = f"go depth {fixed}"
            if limits.nodes is not None or limits.movetime is not None or limits.time:
                log.debug("option Depth %d overrides the go limits", fixed)
        else:
            budget = self.budget(limits)
            if budget is not None:
                command = f"go time {budget[0]}"
                deadline, last_resort = received + budget[1], received + budget[2]
                target = limits.depth
            elif limits.depth is not None:
                command = f"go depth {limits.depth}"
            else:
                command = "go depth 100"
        self.search = Search(
            received, deadline, last_resort, target, limits.infinite and not fixed, self.game.legal_moves()
        )
        self.engine.send(engine_position_line(self.game))
        bans = engine_bans(self.game)
        if bans:
            log.debug("banned for the engine: %s", " ".join(bans))
            self.engine.send("banmoves " + " ".join(bans))
        self.engine.send(command)
        self.engine.busy, self.engine.stale = True, False

    # -- the engine's answers --

    def engine_line(self, line: str) -> None:
        log.debug("engine: %s", line)
        if line.startswith("bestmove"):
            self.engine.busy = False
            if self.engine.stale:
                self.engine.stale = False
                self.start_pending()
                return
            if self.search is None:
                return
            self.flush_info()
            if self.search.infinite:
                self.search.best = self.search.best or self.translate(line.split()[1:2])
                self.search.deadline = None
                return  # `go infinite` answers at `stop`
            self.finish(self.translate(line.split()[1:2], report=True))
            return
        if self.search is None or self.engine.stale:
            return
        m = INFO_PV.match(line)
        if m:
            depth, score = int(m.group(1)), int(m.group(2))
            pv = []
            for t in m.group(3).split():
                move = move_from_engine(t)
                if move is None:
                    break
                pv.append(move)
            if pv:
                self.search.best, self.search.best_depth = pv[0], depth
            ours = " ".join(pv)
            self.flush_info()
            self.search.pending_info = f"info depth {depth} score {score_text(score)}" + (
                f" pv {ours}" if ours else ""
            )
            if self.search.target_depth is not None and depth >= self.search.target_depth:
                self.answer_now(f"depth {depth} reached")
            return
        m = INFO_TIME.match(line)
        if m and self.search.pending_info:
            info = self.search.pending_info
            self.search.pending_info = None
            head, _, pv = info.partition(" pv ")
            # The engine prints its node count with %d: it wraps above 2^31.
            for key, value in (("nodes", m.group(2)), ("time", m.group(1))):
                if not value.startswith("-"):
                    head += f" {key} {value}"
            self.say(head + (f" pv {pv}" if pv else ""))

    def flush_info(self) -> None:
        if self.search and self.search.pending_info:
            self.say(self.search.pending_info)
            self.search.pending_info = None

    def translate(self, words: list[str], report: bool = False) -> str:
        """The engine's answer as our move, `0000` when it is none; logged when our
        rules forbid it."""
        text = words[0] if words else ""
        move = move_from_engine(text)
        if move is None:
            if report:
                log.warning("the engine answered no move ('%s') in %s", text, self.game.fen)
            return "0000"
        if report and move not in self.search.legal:
            log.warning(
                "the engine's move %s (%s) is illegal under %s in %s",
                move,
                text,
                self.game.variant,
                self.game.fen,
            )
        return move

    def answer_now(self, why: str) -> None:
        """Answer with the last finished iteration's move; the engine stops after
        the iteration it is in, and its answer is dropped."""
        s = self.search
        self.flush_info()
        move = s.best
        if move is None:
            move = s.legal[0]
            log.warning("%s before the engine finished an iteration: playing %s", why, move)
        else:
            log.debug("%s: answering %s from depth %d", why, move, s.best_depth)
        if self.engine.busy:
            self.engine.stale = True
            self.engine.send("stop")
        self.finish(move)

    def finish(self, move: str) -> None:
        self.search = None
        self.say(f"bestmove {move}")

    def engine_died(self) -> None:
        log.warning("the engine ended unexpectedly")
        self.engine.busy = False
        if self.search:
            self.flush_info()
            move = self.search.best or "0000"
            self.finish(move)
        self.restart_engine("it ended")
        self.start_pending()

    def drop_pending(self, why: str) -> None:
        """A `go` still waiting for the engine is answered at once."""
        if self.pending_go:
            self.pending_go = None
            move = self.game.legal_moves()[0]
            log.warning("%s while the engine was still busy: playing %s", why, move)
            self.say(f"bestmove {move}")

    def quit(self) -> None:
        if self.search:
            self.answer_now("quit")
        self.drop_pending("quit")
        self.engine.send("quit")
        try:
            self.engine.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            self.engine.kill()  # it reads its input only between iterations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the AnimalcraftAI engine binary (build.sh)")
    parser.add_argument("--depth", type=int, default=0, help="fixed depth for every go (option Depth)")
    parser.add_argument("--log-level", default="WARNING", help="log level (default WARNING)")
    parser.add_argument("--log-file", help="log to this file (appending) instead of stderr")
    args = parser.parse_args(argv)
    if not 0 <= args.depth <= 100:
        parser.error("--depth takes 0 (off) to 100")
    if args.log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        parser.error("--log-level takes debug, info, warning or error")
    # `jungle match` drops its engines' stderr: --log-file keeps a match's log.
    target = {"filename": args.log_file} if args.log_file else {"stream": sys.stderr}
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s animalcraft adapter %(process)d: %(message)s",
        **target,
    )
    if not os.access(args.engine, os.X_OK):
        log.error("no engine binary at %s (build it with scripts/animalcraft/build.sh)", args.engine)
        return 1
    adapter = Adapter(args.engine, args.depth)
    adapter.wait_for_engine()
    adapter.run(sys.stdin.buffer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
