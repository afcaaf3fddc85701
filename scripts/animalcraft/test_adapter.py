"""Tests of the AnimalcraftAI adapter: the translations, the moves it bans, the
protocol.

    ~/venvs/jungle/bin/python -m unittest scripts/animalcraft/test_adapter.py  (or pytest)

The adapter takes our rules from this project's Python package (`jungle.Board`, which
has its own tests in crates/python/tests): run these with the python of the venv it is
installed in. They need neither the engine nor this project's binary: the protocol
tests drive the adapter with a small stand-in engine (FAKE_ENGINE, below) that speaks
AnimalcraftAI's dialect. Two checks run only when told where the real programs are:
JUNGLE_ENGINE=target/release/jungle compares the adapter's game with the binary's
legal moves on random games, and ANIMALCRAFT_ENGINE=DIR/animalcraft-engine plays a few
moves with the real engine.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter as A  # noqa: E402
import jungle  # noqa: E402

ADAPTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapter.py")

# AnimalcraftAI's start position, read off its Engine.cpp (cucpcStartup) by hand:
# its ranks 0-6 are our files a-g, each from its file a (our rank 1) to i (rank 9).
ENGINE_START = "T1E3m1l/1C5d1/2W3p2/9/2P3w2/1D5c1/L1M3e1t r"


def random_position(rng: random.Random) -> str:
    """A legal position string: some animals of each side on allowed squares, checked
    by `jungle.Board`."""
    board = [None] * 63
    for letter in "ELTPWDCReltpwdcr":
        if rng.random() < 0.6:
            continue
        free = [
            sq
            for sq in range(63)
            if board[sq] is None and sq not in A.DEN.values() and (letter.lower() == "r" or sq not in A.WATER)
        ]
        board[rng.choice(free)] = letter
    if not any(board):
        board[0] = "E"
    rows = "/".join(A._run_length(board[r * 7 : r * 7 + 7]) for r in range(8, -1, -1))
    fen = f"{rows} {rng.choice('rb')} {rng.randrange(100)} {rng.randrange(1, 200)}"
    return jungle.Board(fen).fen()


class Translation(unittest.TestCase):
    def test_start_position_both_ways(self):
        self.assertEqual(A.to_engine_fen(A.START_FEN), ENGINE_START)
        self.assertEqual(A.from_engine_fen(ENGINE_START), A.START_FEN)
        blue = A.START_FEN.replace(" r ", " b ")
        self.assertEqual(A.to_engine_fen(blue), ENGINE_START[:-1] + "b")

    def test_fen_round_trips(self):
        rng = random.Random(7)
        for _ in range(500):
            fen = random_position(rng)
            self.assertEqual(A.from_engine_fen(A.to_engine_fen(fen)).split()[:2], fen.split()[:2])
            self.assertEqual(A.placement(fen), A.placement(A.from_engine_fen(A.to_engine_fen(fen))))

    def test_placement(self):
        board = A.placement(A.START_FEN)
        self.assertEqual((board[0], board[6], board[62], board[56]), ("T", "L", "t", "l"))
        self.assertEqual(sum(p is not None for p in board), 16)
        for sq, p in jungle.Board(A.START_FEN).piece_map().items():
            self.assertEqual(board[sq], p.symbol())

    def test_engine_fen_rat_is_mouse(self):
        self.assertEqual(A.to_engine_fen("7/7/7/7/7/7/7/7/R5r r 0 1"), "M8/9/9/9/9/9/m8 r")

    def test_bad_engine_position_strings(self):
        for text, words in [
            ("", "placement and a side"),
            (ENGINE_START[:-2], "placement and a side"),
            ("9/9/9/9/9/9 r", "6 engine ranks"),
            (ENGINE_START.replace("T1E", "X1E"), "bad engine rank"),
            (ENGINE_START.replace("T1E3m1l", "T1E3m1"), "not 9 squares"),
            (ENGINE_START.replace("/9/", "/E8/"), "two"),  # checked by jungle.Board
            (ENGINE_START[:-1] + "x", "side"),
        ]:
            with self.assertRaises(ValueError, msg=text) as cm:
                A.from_engine_fen(text)
            self.assertIn(words, str(cm.exception), text)

    def test_squares_both_ways(self):
        for sq in range(63):
            e = A.engine_square(sq)
            self.assertEqual(A.from_engine_square(e), sq)
            self.assertEqual(A.square_name(sq), jungle.SQUARE_NAMES[sq])
        # Landmarks: our dens d1/d9 are its a3/i3, our a1 its a0, our g9 its i6.
        self.assertEqual(A.engine_square(A.parse_square("d1")), "a3")
        self.assertEqual(A.engine_square(A.parse_square("d9")), "i3")
        self.assertEqual(A.engine_square(A.parse_square("a1")), "a0")
        self.assertEqual(A.engine_square(A.parse_square("g9")), "i6")
        # Its river: its files d-f, ranks 1, 2, 4, 5; ours: b-c and e-f, ranks 4-6.
        river = {
            A.from_engine_square(f + r) for f in "def" for r in "1245"
        }
        self.assertEqual(river, set(A.WATER))

    def test_moves_both_ways(self):
        self.assertEqual(A.move_to_engine("g3g4"), "c6d6")
        self.assertEqual(A.move_from_engine("c6d6"), "g3g4")
        self.assertEqual(A.move_from_engine("a0b0"), "a1a2")
        self.assertEqual(A.move_to_engine("b3b7"), "c1g1")  # a jump along the river
        for a in range(63):
            for b in range(63):
                ours = A.square_name(a) + A.square_name(b)
                self.assertEqual(A.move_from_engine(A.move_to_engine(ours)), ours)

    def test_bad_moves(self):
        # What the engine prints with no move (square 0 of its 16x16 board).
        for text in ("^-^-", "", "a0b", "a0b7", "j0a0", "a0b0c"):
            self.assertIsNone(A.move_from_engine(text), text)
        for text in ("", "a1", "a0a1", "h1h2", "a1a10"):
            with self.assertRaises(ValueError):
                A.move_to_engine(text)


def game(fen, variant="jungle", played=""):
    g = A.Game(fen, variant)
    for m in played.split():
        g.play(m)
    return g


class TheGame(unittest.TestCase):
    """The adapter's game: `jungle.Board` with the variant of option UCI_Variant and
    without draws (the referee judges them)."""

    def test_start_and_bad_position_strings(self):
        g = A.Game()
        self.assertEqual((g.fen, g.variant, g.side, g.moves), (A.START_FEN, "jungle", "r", []))
        self.assertEqual(len(g.legal_moves()), 24)  # docs/benchmarks.md, perft
        self.assertEqual(A.Game(A.START_FEN.replace(" r 0 1", " w")).fen, A.START_FEN)
        for fen in ("", "nonsense r", "7/7/7/7/1E5/7/7/7/7 r", A.START_FEN + " 5"):
            with self.assertRaises(ValueError, msg=fen):
                A.Game(fen)

    def test_play_keeps_the_position_strings(self):
        g = game(A.START_FEN, "jungle-cn", "g3g4 a7a6")
        self.assertEqual(g.variant, "jungle-cn")
        self.assertEqual(g.side, "r")
        self.assertEqual(g.fens, [jungle.Board.from_moves(A.START_FEN, "jungle", g.moves[:k]).fen() for k in range(3)])
        with self.assertRaises(ValueError) as cm:
            g.play("g4g9")
        self.assertIn("illegal move 'g4g9' in " + g.fen, str(cm.exception))
        with self.assertRaises(ValueError):
            g.play("bogus")
        self.assertEqual(g.moves, ["g3g4", "a7a6"])
        copy = g.copy()
        copy.play("g4g5")
        self.assertEqual((len(g.moves), len(g.fens)), (2, 3))

    def test_no_draws_game_over_in_the_den(self):
        # A Red lion in Blue's den: no moves. The same position four times: no draw.
        self.assertEqual(A.Game("3L3/7/7/7/7/7/7/7/6l b").legal_moves(), [])
        g = game("6l/7/7/7/7/7/7/7/L6 r", "jungle", "a1a2 g9g8 a2a1 g8g9 " * 4)
        self.assertTrue(g.legal_moves())

    def test_anti_chase_examples_of_protocol_md(self):
        moves = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8"
        g = game("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle-cn", moves)
        legal = g.legal_moves()
        self.assertNotIn("a3a2", legal)
        self.assertIn("a3b3", legal)
        self.assertIn("a3a4", legal)
        self.assertIn("a3a2", game("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle", moves).legal_moves())
        # Chased: Blue's last move is the tiger's jump b7b3, next to the wolf.
        chased = moves.rsplit(" ", 1)[0] + " b7b3"
        self.assertIn("a3a2", game("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle-cn", chased).legal_moves())
        # 17-5: the lone lion circling b1 a1 a2 b2 has no move left.
        red, blue = ["b1a1", "a1a2", "a2b2", "b2b1"], ["g9f9", "f9f8", "f8g8", "g8g9"]
        g = game("6l/7/7/7/r6/7/7/7/1L5 r", "jungle-cn")
        for i in range(17):
            self.assertIn(red[i % 4], g.legal_moves())
            g.play(red[i % 4])
            g.play(blue[i % 4])
        self.assertEqual(g.legal_moves(), [])


class EngineRules(unittest.TestCase):
    """The moves AnimalcraftAI may think legal, and those the adapter bans."""

    def test_engine_bans(self):
        # The engine jumps over a rat (its own or not) and lets rats take across the
        # water's edge; our rules forbid both, so the adapter bans them.
        for fen, move in [
            ("6l/7/7/7/1R5/7/1L5/7/7 r", "b3b7"),
            ("6l/7/7/7/1r5/7/1L5/7/7 r", "b3b7"),
            ("6l/7/7/7/Rr5/7/7/7/6L r", "a5b5"),
            ("6l/7/7/7/Rr5/7/7/7/6L b", "b5a5"),
            ("6l/7/7/7/eR5/7/7/7/6L r", "b5a5"),  # a rat in water takes nothing on land
            ("6l/7/7/7/7/7/7/7/1cE4 b", "b1c1"),  # on its own trap the elephant is safe
        ]:
            g = A.Game(fen)
            self.assertIn(move, A.engine_candidates(g.fen), fen)
            self.assertNotIn(move, g.legal_moves(), fen)
            self.assertIn(A.move_to_engine(move), A.engine_bans(g), fen)
        # Legal ones are not banned: rats in water take each other, a rat from land
        # takes the elephant, anything takes an enemy in its own traps, jumps.
        for fen, move in [
            ("6l/7/7/7/1Rr4/7/7/7/6L r", "b5c5"),
            ("6l/7/7/7/7/7/eR5/7/6L r", "b3a3"),
            ("6l/7/7/7/7/7/7/7/1Re4 r", "b1c1"),
            ("6l/7/7/7/7/7/1L5/7/7 r", "b3b7"),
            ("6l/7/7/7/7/L6/7/7/7 r", "a4d4"),
        ]:
            g = A.Game(fen)
            self.assertIn(move, g.legal_moves(), fen)
            self.assertNotIn(A.move_to_engine(move), A.engine_bans(g), fen)
        # Nothing at the start.
        self.assertEqual(A.engine_bans(A.Game()), [])

    def test_anti_chase_bans(self):
        # What `jungle-cn` forbids the wolf is banned for the engine too.
        moves = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8"
        g = game("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle-cn", moves)
        self.assertEqual(A.engine_bans(g), [A.move_to_engine("a3a2")])
        self.assertEqual(A.engine_bans(game("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle", moves)), [])

    def test_engine_candidates_cover_legal_moves(self):
        rng = random.Random(3)
        for _ in range(300):
            g = A.Game(random_position(rng))
            legal = set(g.legal_moves())
            candidates = A.engine_candidates(g.fen)
            self.assertLessEqual(legal, set(candidates), g.fen)
            self.assertEqual(len(candidates), len(set(candidates)), g.fen)
            bans = set(A.engine_bans(g))
            self.assertFalse(bans & set(map(A.move_to_engine, legal)), g.fen)
            if legal:
                self.assertEqual(len(bans) + len(legal), len(candidates), g.fen)

    def test_engine_position_line_is_short(self):
        g = A.Game()
        rng = random.Random(5)
        while len(g.moves) < 300 and g.legal_moves():
            g.play(rng.choice(g.legal_moves()))
        self.assertGreater(len(g.moves), A.HISTORY_SENT + 10)
        line = A.engine_position_line(g)
        self.assertLess(len(line), 1023)
        self.assertEqual(line.count(" ") - 3, A.HISTORY_SENT)  # "fen", side, "moves"
        base = A.from_engine_fen(line[4:].split(" moves ")[0])
        k = len(g.moves) - A.HISTORY_SENT
        earlier = jungle.Board.from_moves(A.START_FEN, "jungle", g.moves[:k]).fen()
        self.assertEqual(base.split()[:2], earlier.split()[:2])
        self.assertEqual(A.engine_position_line(A.Game()), "fen " + ENGINE_START)

    def test_scores(self):
        self.assertEqual(A.score_text(37), "cp 37")
        self.assertEqual(A.score_text(-37), "cp -37")
        self.assertEqual(A.score_text(10000 - 3), "mate 2")
        self.assertEqual(A.score_text(-10000 + 4), "mate -2")


@unittest.skipUnless(os.environ.get("JUNGLE_ENGINE"), "JUNGLE_ENGINE (this project's binary) not set")
class RulesAgainstTheEngine(unittest.TestCase):
    """The adapter's game (`jungle.Board` as it sets it up) against the `jungle`
    binary's rules (`d` lists the legal moves)."""

    def test_random_games(self):
        for variant, seed in (("jungle", 1), ("jungle-cn", 2)):
            with subprocess.Popen(
                [os.environ["JUNGLE_ENGINE"]],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            ) as p:
                p.stdin.write(f"setoption name UCI_Variant value {variant}\n")
                rng = random.Random(seed)
                for _ in range(20):
                    g = A.Game(A.START_FEN, variant)
                    while True:
                        moves = " moves " + " ".join(g.moves) if g.moves else ""
                        p.stdin.write(f"position startpos{moves}\nd\n")
                        p.stdin.flush()
                        theirs = state = None
                        while state is None:
                            line = p.stdout.readline()
                            self.assertTrue(line, "the engine ended")
                            if line.startswith("Moves:"):
                                theirs = sorted(line.split()[1:])
                            elif line.startswith("State:"):
                                state = line
                        if "ongoing" not in state:
                            break
                        ours = g.legal_moves()
                        self.assertEqual(sorted(ours), theirs, f"{variant}: {' '.join(g.moves)}")
                        # Shuffle one animal often, to meet the anti-chase rules.
                        again = [m for m in ours if len(g.moves) > 1 and m[:2] == g.moves[-2][2:]]
                        g.play(rng.choice(again if again and rng.random() < 0.6 else ours))
                p.stdin.write("quit\n")
                p.stdin.flush()


# A stand-in for AnimalcraftAI: its start line, `ucci`, `fen`, `banmoves`, `go` with
# `info` lines, and input read only between iterations. FAKE_MOVE is its answer (its
# notation), FAKE_ITERATION the seconds each iteration after the first takes.
FAKE_ENGINE = textwrap.dedent(
    """\
    import os, select, sys, time
    move = os.environ.get("FAKE_MOVE", "c6d6")
    pause = float(os.environ.get("FAKE_ITERATION", "0"))
    first = float(os.environ.get("FAKE_FIRST", "0"))  # its hash table's clearing
    log = open(os.environ["FAKE_LOG"], "a") if os.environ.get("FAKE_LOG") else None
    buf = b""
    def line(block):
        global buf
        while b"\\n" not in buf:
            if not block and not select.select([0], [], [], 0)[0]:
                return None
            chunk = os.read(0, 4096)
            if not chunk:
                sys.exit(0)
            buf += chunk
        text, _, buf = buf.partition(b"\\n")
        text = text.decode().strip()
        if log:
            log.write(text + "\\n"); log.flush()
        return text
    print("uaciok", flush=True)
    while True:
        text = line(True)
        if text == "ucci":
            print("id name AnimalcraftAI\\nid version 1.7\\nucciok", flush=True)
        elif text.startswith("go "):
            depth = int(text.split()[2]) if text.startswith("go depth") else 100
            time.sleep(first)
            for d in range(1, depth + 1):
                if d > 1:
                    time.sleep(pause)
                print(f"info depth {d}\\ninfo depth {d} score {d} pv {move} i6h6", flush=True)
                print(f"info time {d} nodes {d * 100}", flush=True)
                if d < depth and line(False) == "stop":
                    break
            print(f"bestmove {move}", flush=True)
        elif text == "quit":
            print("bye", flush=True)
            break
    """
)


class Session:
    """Runs the adapter as a process (self.engine: the engine binary)."""

    log = None

    def session(self, lines, env=None, args=()):
        """Sends the lines (a float waits that long: the adapter's start takes some
        0.1 s) and returns stdout's lines."""
        environment = dict(os.environ, **(env or {}))
        if self.log:
            environment["FAKE_LOG"] = self.log
        p = subprocess.Popen(
            [sys.executable, ADAPTER, "--engine", self.engine, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for line in lines:
            if isinstance(line, float):
                time.sleep(line)
            else:
                p.stdin.write(line + "\n")
                p.stdin.flush()
        out, err = p.communicate(timeout=20)
        self.stderr = err
        self.assertEqual(p.returncode, 0, err)
        return out.splitlines()

    def engine_input(self):
        with open(self.log) as f:
            return f.read().splitlines()


class Protocol(Session, unittest.TestCase):
    """The adapter as a process, with the stand-in engine."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.engine = os.path.join(self.dir.name, "fake-engine")
        with open(self.engine, "w") as f:
            f.write(f"#!{sys.executable}\n" + FAKE_ENGINE)
        os.chmod(self.engine, 0o755)
        self.log = os.path.join(self.dir.name, "engine-input")

    def tearDown(self):
        self.dir.cleanup()

    def test_handshake_options_and_errors(self):
        out = self.session(
            [
                "uci",
                "setoption name Depth value 10",
                "setoption name depth value 101",
                "setoption name UCI_Variant value JUNGLE-CN",
                "setoption name DogSwims value true",
                "setoption name Hash value 16",
                "bogus",
                "position fen nonsense r",
                "isready",
                "go nodes 1000",
                0.5,
                "quit",
            ]
        )
        self.assertEqual(out[0], "id name AnimalcraftAI 1.7 (adapter)")
        self.assertIn("option name Depth type spin default 0 min 0 max 100", out)
        self.assertIn("option name UCI_Variant type combo default jungle var jungle var jungle-cn", out)
        self.assertIn("uciok", out)
        errors = [line for line in out if line.startswith("info string error")]
        self.assertEqual(len(errors), 5, out)
        self.assertIn("from 0 to 100, got '101'", errors[0])
        self.assertIn("DogSwims", errors[1])
        self.assertIn("unknown option 'Hash'", errors[2])
        self.assertIn("unknown command 'bogus'", errors[3])
        self.assertIn("position refused", errors[4])
        # With Depth set, go nodes is searched to that depth.
        self.assertEqual(out[-1], "bestmove g3g4")
        self.assertIn("go depth 10", self.engine_input())

    def test_without_the_jungle_package(self):
        # `-S`: no site-packages, so no `jungle`: one line saying how to install it.
        p = subprocess.run(
            [sys.executable, "-S", ADAPTER, "--engine", self.engine], capture_output=True, text=True, timeout=20
        )
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertIn("cannot import the jungle package", p.stderr)
        self.assertIn("pip install ./crates/python", p.stderr)

    def test_go_nodes_refused_without_depth(self):
        out = self.session(["go nodes 1000", "isready", "quit"])
        self.assertEqual(len(out), 2, out)
        self.assertIn("go nodes refused", out[0])
        self.assertEqual(out[1], "readyok")

    def test_position_and_moves_are_translated(self):
        out = self.session(["position startpos moves g3g4", "go depth 3", 0.5, "quit"], env={"FAKE_MOVE": "i6h6"})
        self.assertEqual(out[-1], "bestmove g9g8")
        self.assertEqual(out[0], "info depth 1 score cp 1 nodes 100 time 1 pv g9g8 g9g8")
        sent = self.engine_input()
        self.assertIn("fen " + ENGINE_START + " moves c6d6", sent)
        self.assertIn("go depth 3", sent)

    def test_fixed_depth_overrides_limits(self):
        out = self.session(
            ["setoption name Depth value 4", "go movetime 100", 0.5, "go wtime 1000 btime 1000", 0.5, "quit"]
        )
        self.assertEqual([line for line in out if line.startswith("bestmove")], ["bestmove g3g4"] * 2)
        # The first is the warm-up at start (the engine's first go is slow).
        self.assertEqual([line for line in self.engine_input() if line.startswith("go")], ["go depth 1"] + ["go depth 4"] * 2)

    def test_movetime_answers_in_time_with_the_last_iteration(self):
        # Each iteration after the first takes 1 s: at movetime 300 the answer is the
        # first iteration's move, within the time, and the engine is told to stop.
        start = time.monotonic()
        out = self.session(
            ["setoption name Move Overhead value 50", "go movetime 300", 0.6, "isready", 2.0, "quit"],
            env={"FAKE_ITERATION": "1.0"},
        )
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(out[0].split(" pv ")[0], "info depth 1 score cp 1 nodes 100 time 1")
        self.assertEqual(out[1], "bestmove g3g4")
        self.assertEqual(out[2], "readyok")
        sent = self.engine_input()
        self.assertIn("go time 125", sent)  # half of 300 less the overhead
        self.assertIn("stop", sent)

    def test_late_first_iteration_is_waited_for(self):
        # The engine needs 0.5 s before its first iteration ends: at movetime 200 the
        # adapter waits for it (late) rather than answer blindly.
        start = time.monotonic()
        out = self.session(
            [1.0, "position startpos moves g3g4", "go movetime 200", 1.5, "quit"],
            env={"FAKE_FIRST": "0.5", "FAKE_ITERATION": "0.3", "FAKE_MOVE": "i6h6"},
        )
        self.assertEqual(out[-1], "bestmove g9g8")
        self.assertIn("waiting for it", self.stderr)
        self.assertLess(time.monotonic() - start, 10)

    def test_next_go_waits_for_the_stopped_search(self):
        # The second go comes while the engine finishes the iteration it was told to
        # stop after: the adapter sends nothing before its bestmove (the engine would
        # read the line as a stop), then the new search.
        out = self.session(
            [1.0, "go movetime 100", 0.1, "position startpos moves g3g4", "go movetime 3000", 3.3, "quit"],
            env={"FAKE_ITERATION": "0.4", "FAKE_MOVE": "i6h6"},
        )
        self.assertEqual([line for line in out if line.startswith("bestmove")], ["bestmove g9g8"] * 2)
        sent = self.engine_input()
        stop = sent.index("stop")
        self.assertEqual(sent[stop + 1], "fen " + ENGINE_START + " moves c6d6")
        self.assertEqual(sent.count("go time 1475"), 1)
        # A stop while the go waits for the engine is answered at once.
        out = self.session(
            [1.0, "go movetime 100", 0.1, "position startpos moves g3g4", "go movetime 3000", 0.05, "stop", "isready", "quit"],
            env={"FAKE_ITERATION": "0.4", "FAKE_MOVE": "i6h6"},
        )
        self.assertEqual(out[-2:], ["bestmove " + A.Game("l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b").legal_moves()[0], "readyok"])

    def test_illegal_engine_move_is_passed_on_and_logged(self):
        # Red's tiger a1 cannot go to e1 (its a4): the referee judges the move.
        out = self.session(["go depth 1", 0.5, "quit"], env={"FAKE_MOVE": "a0e0"}, args=("--log-level", "warning"))
        self.assertEqual(out[-1], "bestmove a1a5")
        self.assertIn("illegal", self.stderr)

    def test_no_move_from_the_engine(self):
        out = self.session(["go depth 1", 0.5, "quit"], env={"FAKE_MOVE": "^-^-"})
        self.assertEqual(out[-1], "bestmove 0000")
        self.assertIn("no move", self.stderr)

    def test_game_over_and_stop(self):
        out = self.session(["position fen 3L3/7/7/7/7/7/7/7/6l b", "go depth 5", "quit"])
        self.assertEqual(out, ["bestmove 0000"])
        out = self.session(["go infinite", 0.5, "stop", "isready", "quit"], env={"FAKE_ITERATION": "0.1"})
        self.assertEqual(out[-2:], ["bestmove g3g4", "readyok"])

    def test_banmoves_sent(self):
        self.session(["position fen 6l/7/7/7/1R5/7/1L5/7/7 r", "go depth 1", 0.5, "quit"], env={"FAKE_MOVE": "c0c1"})
        bans = [line for line in self.engine_input() if line.startswith("banmoves")]
        self.assertEqual(len(bans), 1)
        self.assertIn(A.move_to_engine("b3b7"), bans[0].split())

    def test_position_plays_only_new_moves(self):
        adapter = A.Adapter.__new__(A.Adapter)
        adapter.options = {o.name.lower(): o.default for o in A.OPTIONS}
        adapter.game = A.Game()
        adapter.out = io.StringIO()
        adapter.position("startpos moves g3g4".split())
        first = adapter.game
        adapter.position("startpos moves g3g4 a7a6".split())
        self.assertEqual(adapter.game.moves, ["g3g4", "a7a6"])
        self.assertIs(adapter.game.fens[1], first.fens[1])  # kept, not replayed
        self.assertEqual(first.moves, ["g3g4"])  # the old game is not changed
        # An illegal move refuses the whole command: the game stays.
        adapter.position("startpos moves g3g4 a7a6 g4g9".split())
        self.assertIn("position refused: illegal move 'g4g9'", adapter.out.getvalue())
        self.assertEqual(adapter.game.moves, ["g3g4", "a7a6"])
        # Another line or start position starts again.
        adapter.position("startpos moves a3a4".split())
        self.assertEqual(adapter.game.moves, ["a3a4"])
        adapter.position(f"fen {A.START_FEN.replace(' 0 1', ' 7 1')} moves a3a4".split())
        self.assertEqual(adapter.game.board.halfmove_clock, 8)
        # Another variant starts again too.
        adapter.options["uci_variant"] = "jungle-cn"
        adapter.position("startpos moves a3a4".split())
        self.assertEqual((adapter.game.variant, adapter.game.moves), ("jungle-cn", ["a3a4"]))

    def test_clock_budget(self):
        adapter = A.Adapter.__new__(A.Adapter)
        adapter.options = {"move overhead": 50}
        adapter.game = A.Game()
        engine_ms, hard, last = adapter.budget(A.parse_go("wtime 10050 btime 5000 winc 100 binc 100".split()))
        self.assertEqual(engine_ms, int((10000 / 30 + 75) * 0.6))
        self.assertAlmostEqual(hard, 3 * (10000 / 30 + 75) / 1000)
        self.assertAlmostEqual(last, 5.0)
        self.assertEqual(adapter.budget(A.parse_go(["movetime", "1050"])), (500, 1.0, 3.05))
        self.assertIsNone(adapter.budget(A.parse_go(["depth", "5"])))
        for bad in (["depth", "0"], ["depth"], ["movetime", "-5"], ["ponder"], ["bogus", "1"]):
            with self.assertRaises(ValueError):
                A.parse_go(bad)


@unittest.skipUnless(os.environ.get("ANIMALCRAFT_ENGINE"), "ANIMALCRAFT_ENGINE (the built engine) not set")
class RealEngine(Session, unittest.TestCase):
    """The adapter with the real engine (build.sh)."""

    def setUp(self):
        self.engine = os.environ["ANIMALCRAFT_ENGINE"]

    def test_moves_and_bans(self):
        # Red's lion b3 would jump over its own rat b5 to take the tiger b7 (the
        # engine's own rules allow it); the adapter bans the jump.
        out = self.session(
            [
                "position startpos moves g3g4",
                "go depth 6",
                1.0,
                "position fen 6l/7/1t5/7/1R5/7/1L5/7/7 r",
                "go movetime 500",
                1.0,
                "quit",
            ]
        )
        best = [line.split()[1] for line in out if line.startswith("bestmove")]
        self.assertEqual(len(best), 2, out)
        self.assertIn(best[0], game(A.START_FEN, played="g3g4").legal_moves())
        self.assertNotEqual(best[1], "b3b7")
        self.assertIn(best[1], A.Game("6l/7/1t5/7/1R5/7/1L5/7/7 r").legal_moves())


if __name__ == "__main__":
    unittest.main()
