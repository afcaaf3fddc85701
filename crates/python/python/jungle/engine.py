"""Any engine speaking the protocol of ``protocol.md``, out of process: this project's
``jungle``, or jungine (``proto="jcei"``), or any other.

``EngineProcess`` has the ``analyse`` and ``play`` of the in-process
``jungle.Engine`` and returns the same types (``InfoLine``, ``PlayResult``); the
engine's ``info`` lines are read by the package's one reader (``jungle.parse_info``).
The client never trusts the engine: every wait has a deadline. A search past its
time (movetime or its own clock, plus ``margin``) is told to ``stop``; if the answer
does not come at once the process is killed; either way ``EngineTimeout`` is raised.
A search by depth or nodes waits ``timeout`` seconds at most (``None``: no limit)::

    with jungle.engine.EngineProcess("target/release/jungle") as engine:
        print(engine.play(board, movetime=0.1).move)
        for line in engine.analyse(board, depth=10, multipv=2):
            print(line.score, line.pv)
"""

import queue
import subprocess
import threading
import time

from . import Board, InfoLine, Move, PlayResult, parse_info
from ._jungle import go_line, position_line, setoption_line

__all__ = ["EngineError", "EngineProcess", "EngineTimeout", "InfoLine", "PlayResult", "go_line", "position_line", "setoption_line"]

# How long an engine may take past its limit before it has lost on time.
DEFAULT_MARGIN = 1.0
# How long an engine has to answer `stop`, `isready` and the handshake.
ANSWER_TIME = 10.0


class EngineError(RuntimeError):
    """The engine failed: it crashed, refused an option, or sent nonsense."""


class EngineTimeout(EngineError):
    """The engine did not answer within its time."""


class EngineProcess:
    """An engine as a child process.

    ``EngineProcess(command, *, proto="uci", options=None, timeout=10.0)``: ``command``
    is the program (a path, or a list of the program and its arguments), ``proto``
    ``"uci"`` or ``"jcei"`` (the handshake of the public Jungle engines),
    ``options`` a dict of ``setoption`` names and values sent after the handshake
    (an option the engine refuses raises ``EngineError``).
    """

    def __init__(self, command, *, proto="uci", options=None, timeout=ANSWER_TIME):
        if proto not in ("uci", "jcei"):
            raise ValueError(f"unknown protocol {proto!r} (uci or jcei)")
        args = [command] if isinstance(command, str) else list(command)
        try:
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise EngineError(f"cannot start engine {args[0]!r}: {e}") from e
        self._lines = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.name = None
        self.options = []
        self._rules_sent = Board().rules
        self._multipv = 1
        hello, ok = ("jcei", "jceiok") if proto == "jcei" else ("uci", "uciok")
        self._send(hello)
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(deadline, f"the {hello} handshake")
            if line == ok:
                break
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            elif line.startswith("option "):
                self.options.append(line[len("option "):].strip())
        for name, value in (options or {}).items():
            self._send(setoption_line(name, _option_value(value)))
        self._sync(timeout)

    # ----- the process ------------------------------------------------------------

    def _read(self):
        for line in self._process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _send(self, line):
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass  # a dead engine is noticed when its answer does not come

    def _next_line(self, deadline, waiting_for):
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            line = self._lines.get(timeout=left)
        except queue.Empty:
            raise EngineTimeout(f"engine {self._label()} did not answer in time ({waiting_for})") from None
        if line is None:
            self._lines.put(None)
            raise EngineError(f"engine {self._label()} ended ({waiting_for})")
        return line

    def _sync(self, timeout=ANSWER_TIME):
        self._send("isready")
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(deadline, "isready")
            if line == "readyok":
                return
            if line.startswith("info string error"):
                why = line[len("info string error"):].lstrip(":").strip()
                raise EngineError(f"engine {self._label()} refused: {why}")

    def _label(self):
        return repr(self.name or self._process.args[0])

    def declares(self, option):
        """True when the engine declared the option ``option`` (any case)."""
        wanted = option.lower()
        for o in self.options:
            if o.startswith("name ") and o[5:].split(" type ")[0].lower() == wanted:
                return True
        return False

    def configure(self, options):
        """Sends ``setoption`` for each name and value; ``EngineError`` if refused."""
        for name, value in options.items():
            self._send(setoption_line(name, _option_value(value)))
        self._sync()

    # ----- searches -----------------------------------------------------------------

    def _prepare(self, board, multipv):
        if board.rules != self._rules_sent:
            # Nothing is sent while the rules are the default ones, so that engines
            # without these options work.
            for name, value in board.rule_options():
                self._send(setoption_line(name, value))
            self._rules_sent = board.rules
        if multipv != self._multipv:
            self._send(setoption_line("MultiPV", str(multipv)))
            self._multipv = multipv
        self._sync()
        self._send(position_line(board))

    def _search(self, board, go, deadline, multipv):
        """Sends ``go``; returns (bestmove line, last info line of each number)."""
        if board.is_game_over():
            # As jungle.Engine: a finished game is not searched.
            raise ValueError(f"the game is over: {board.outcome()}")
        self._prepare(board, multipv)
        lines = {}
        self._send(go)
        while True:
            try:
                line = self._next_line(deadline, go)
            except EngineTimeout:
                self._stop_late(go)
                raise
            if line.startswith("bestmove"):
                return line, [lines[k] for k in sorted(lines)]
            info = parse_info(line)
            if info is not None and 1 <= info.multipv <= multipv:
                lines[info.multipv] = info

    def _stop_late(self, go):
        """The search ran past its time: `stop`, and kill the engine if it does not
        answer at once."""
        self._send("stop")
        deadline = time.monotonic() + DEFAULT_MARGIN
        try:
            while not self._next_line(deadline, "stop").startswith("bestmove"):
                pass
        except EngineError:
            self.kill()

    def analyse(self, board, *, depth=None, nodes=None, movetime=None, multipv=1,
                margin=DEFAULT_MARGIN, timeout=60.0):
        """The engine's lines for ``board`` (``InfoLine``, best first)."""
        go, deadline = _go_command(board, depth, nodes, movetime, None, None, margin, timeout)
        _, lines = self._search(board, go, deadline, multipv)
        return lines

    def play(self, board, *, depth=None, nodes=None, movetime=None, clock=None, increment=None,
             margin=DEFAULT_MARGIN, timeout=60.0):
        """The engine's move for ``board`` (a ``PlayResult``); ``clock=(red, blue)``
        and ``increment=(red, blue)`` in seconds (or one number for both sides) play
        on a clock."""
        go, deadline = _go_command(board, depth, nodes, movetime, clock, increment, margin, timeout)
        started = time.monotonic()
        best, lines = self._search(board, go, deadline, 1)
        tokens = best.split()
        try:
            move = board.parse_uci(tokens[1])
        except (IndexError, ValueError) as e:
            raise EngineError(f"engine {self._label()} answered an illegal move: {best!r} ({e})") from None
        ponder = None
        if len(tokens) >= 4 and tokens[2] == "ponder":
            try:
                ponder = Move.from_uci(tokens[3])
            except ValueError:
                ponder = None
        last = lines[0] if lines else None
        return PlayResult(
            move,
            ponder=ponder,
            score=last.score if last else None,
            depth=last.depth if last else 0,
            nodes=last.nodes if last else 0,
            time=time.monotonic() - started,
        )

    def new_game(self):
        self._send("ucinewgame")
        self._sync()

    # ----- the end ------------------------------------------------------------------

    def kill(self):
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def quit(self):
        """Ends the engine: ``quit``, then kill if it does not exit promptly."""
        if self._process.poll() is None:
            self._send("quit")
            try:
                self._process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self._process.stdin, self._process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def close(self):
        """Ends the engine (``quit``; killed if it does not exit promptly); calling it
        again does nothing. ``with EngineProcess(…) as engine:`` closes it too."""
        self.quit()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()

    def __del__(self):
        try:
            self.kill()
        except Exception:
            pass


def _option_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _go_command(board, depth, nodes, movetime, clock, increment, margin, timeout):
    """The ``go`` line (checked and written by the core, as ``jungle.Engine`` checks
    its limits) and the time by which the answer must have come."""
    go = go_line(depth=depth, nodes=nodes, movetime=movetime, clock=clock, increment=increment)
    now = time.monotonic()
    deadline = None if timeout is None else now + timeout
    if movetime is not None:
        deadline = now + movetime + margin
    if clock is not None:
        if isinstance(clock, (int, float)):
            own = clock
        else:
            own = clock[0] if board.turn == "red" else clock[1]
        deadline = now + own + margin
    return go, deadline
