"""Tests of the AnimalcraftAI adapter: the translations, our rules, the protocol.

    python3 -m unittest scripts/animalcraft/test_adapter.py     (or pytest)

They need neither the engine nor this project's binary: the protocol tests drive the
adapter with a small stand-in engine (FAKE_ENGINE, below) that speaks AnimalcraftAI's
dialect. Two checks run only when told where the real programs are:
JUNGLE_ENGINE=target/release/jungle compares our rules here with the engine's on
random games, and ANIMALCRAFT_ENGINE=DIR/animalcraft-engine plays a few moves with
the real engine.
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

ADAPTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapter.py")

# AnimalcraftAI's start position, read off its Engine.cpp (cucpcStartup) by hand:
# its ranks 0-6 are our files a-g, each from its file a (our rank 1) to i (rank 9).
ENGINE_START = "T1E3m1l/1C5d1/2W3p2/9/2P3w2/1D5c1/L1M3e1t r"


def random_position(rng: random.Random) -> A.Position:
    """A legal-looking position: some animals of each side on allowed squares."""
    board = [None] * 63
    for letter in "ELTPWDCReltpwdcr":
        if rng.random() < 0.6:
            continue
        side = A.owner(letter)
        free = [
            sq
            for sq in range(63)
            if board[sq] is None
            and sq != A.DEN[side]
            and sq != A.DEN[A.other(side)]
            and (letter.lower() == "r" or sq not in A.WATER)
        ]
        board[rng.choice(free)] = letter
    if not any(board):
        board[0] = "E"
    return A.Position(tuple(board), rng.choice("rb"), rng.randrange(100), rng.randrange(1, 200))


class Translation(unittest.TestCase):
    def test_start_position_both_ways(self):
        start = A.parse_fen(A.START_FEN)
        self.assertEqual(A.to_engine_fen(start), ENGINE_START)
        self.assertEqual(A.to_fen(A.from_engine_fen(ENGINE_START)), A.START_FEN)
        blue = A.Position(start.board, "b")
        self.assertEqual(A.to_engine_fen(blue), ENGINE_START[:-1] + "b")

    def test_fen_round_trips(self):
        rng = random.Random(7)
        for _ in range(500):
            pos = random_position(rng)
            fen = A.to_fen(pos)
            self.assertEqual(A.parse_fen(fen), pos)
            back = A.from_engine_fen(A.to_engine_fen(pos))
            self.assertEqual((back.board, back.side), (pos.board, pos.side))

    def test_engine_fen_rat_is_mouse(self):
        pos = A.parse_fen("7/7/7/7/7/7/7/7/R5r r")
        self.assertEqual(A.to_engine_fen(pos), "M8/9/9/9/9/9/m8 r")

    def test_squares_both_ways(self):
        for sq in range(63):
            e = A.engine_square(sq)
            self.assertEqual(A.from_engine_square(e), sq)
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

    def test_bad_position_strings(self):
        for fen, words in [
            ("", "empty"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L", "side"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 r", "ranks"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L r", "wide"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X r", "unknown"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5E r", "two"),
            ("7/7/7/7/1E5/7/7/7/7 r", "water"),
            ("7/7/7/7/7/7/7/7/3E3 r", "own den"),
            ("3E3/7/7/7/7/7/7/7/3e3 r", "both"),
            ("7/7/7/7/7/7/7/7/7 r", "no animals"),
            (A.START_FEN.replace(" r ", " x "), "side"),
            (A.START_FEN + " 5", "follows"),
            (A.START_FEN.replace(" 0 1", " -1 1"), "plies"),
            (A.START_FEN.replace(" 0 1", " 0 0"), "move number"),
        ]:
            with self.assertRaises(A.FenError, msg=fen) as cm:
                A.parse_fen(fen)
            self.assertIn(words, str(cm.exception), fen)
        self.assertEqual(A.parse_fen(A.START_FEN.replace(" r 0 1", " w")).side, "r")


def perft(pos: A.Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = A.base_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(A.play(pos, m), depth - 1) for m in moves)


class Rules(unittest.TestCase):
    def test_perft_of_the_start(self):
        # protocol.md, section 4: 24, 576, 12240.
        start = A.parse_fen(A.START_FEN)
        self.assertEqual([perft(start, d) for d in (1, 2, 3)], [24, 576, 12240])

    def moves(self, fen, variant="jungle", played=""):
        game = A.Game(A.parse_fen(fen), variant)
        for m in played.split():
            game.play(m)
        return game

    def test_water_edge_rat_captures(self):
        # Red rat a5 (land) next to Blue rat b5 (water): no capture either way.
        self.assertNotIn("a5b5", self.moves("6l/7/7/7/Rr5/7/7/7/6L r").legal_moves())
        self.assertNotIn("b5a5", self.moves("6l/7/7/7/Rr5/7/7/7/6L b").legal_moves())
        # Rats in water take each other.
        self.assertIn("b5c5", self.moves("6l/7/7/7/1Rr4/7/7/7/6L r").legal_moves())
        # A rat in water does not take the elephant on land; from land it does.
        self.assertNotIn("b5a5", self.moves("6l/7/7/7/eR5/7/7/7/6L r").legal_moves())
        self.assertIn("b3a3", self.moves("6l/7/7/7/7/7/eR5/7/6L r").legal_moves())

    def test_jumps_blocked_by_any_rat(self):
        # Red lion b3 jumps to b7 unless a rat of either side is on b4-b6.
        self.assertIn("b3b7", self.moves("6l/7/7/7/7/7/1L5/7/7 r").legal_moves())
        self.assertNotIn("b3b7", self.moves("6l/7/7/7/1R5/7/1L5/7/7 r").legal_moves())
        self.assertNotIn("b3b7", self.moves("6l/7/7/7/1r5/7/1L5/7/7 r").legal_moves())
        # Sideways: a4 -> d4 over b4 c4.
        self.assertIn("a4d4", self.moves("6l/7/7/7/7/L6/7/7/7 r").legal_moves())

    def test_traps(self):
        # A Blue elephant on Red's trap c1 is taken by the Red rat; the Red elephant
        # takes the Blue rat on d2.
        self.assertIn("b1c1", self.moves("6l/7/7/7/7/7/7/7/1Re4 r").legal_moves())
        self.assertIn("d3d2", self.moves("6l/7/7/7/7/7/3E3/3r3/7 r").legal_moves())
        # On its own trap an animal keeps its power: the Blue cat cannot take the Red
        # elephant on c1.
        self.assertNotIn("b1c1", self.moves("6l/7/7/7/7/7/7/7/1cE4 b").legal_moves())

    def test_anti_chase_examples_of_protocol_md(self):
        moves = "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8"
        g = self.moves("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle-cn", moves)
        legal = g.legal_moves()
        self.assertNotIn("a3a2", legal)
        self.assertIn("a3b3", legal)
        self.assertIn("a3a4", legal)
        self.assertIn("a3a2", self.moves("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle", moves).legal_moves())
        # Chased: Blue's last move is the tiger's jump b7b3, next to the wolf.
        chased = moves.rsplit(" ", 1)[0] + " b7b3"
        self.assertIn("a3a2", self.moves("6l/7/1t5/7/7/7/W5R/7/7 r", "jungle-cn", chased).legal_moves())
        # Through a trap: nothing is forbidden.
        trap = "d3d2 g9f9 d2d3 f9f8 d3d2 f8g8 d2d3 g8g9 d3d2 g9f9 d2d3 f9f8"
        self.assertIn("d3d2", self.moves("6l/7/7/7/7/7/3W2R/7/7 r", "jungle-cn", trap).legal_moves())
        # 17-5: the lone lion circling b1 a1 a2 b2 has no move left.
        red, blue = ["b1a1", "a1a2", "a2b2", "b2b1"], ["g9f9", "f9f8", "f8g8", "g8g9"]
        g = self.moves("6l/7/7/7/r6/7/7/7/1L5 r", "jungle-cn")
        for i in range(17):
            self.assertIn(red[i % 4], g.legal_moves())
            g.play(red[i % 4])
            g.play(blue[i % 4])
        self.assertEqual(g.legal_moves(), [])

    def test_engine_bans(self):
        # The engine jumps over its own rat and lets rats take each other across the
        # water's edge; our rules forbid both, so the adapter bans them.
        g = self.moves("6l/7/7/7/1R5/7/1L5/7/7 r")
        self.assertIn(A.move_to_engine("b3b7"), A.engine_bans(g))
        g = self.moves("6l/7/7/7/Rr5/7/7/7/6L r")
        self.assertIn(A.move_to_engine("a5b5"), A.engine_bans(g))
        # Nothing at the start, and never a legal move.
        start = A.Game(A.parse_fen(A.START_FEN))
        self.assertEqual(A.engine_bans(start), [])
        legal = set(map(A.move_to_engine, g.legal_moves()))
        self.assertFalse(legal & set(A.engine_bans(g)))

    def test_engine_candidates_cover_legal_moves(self):
        rng = random.Random(3)
        for _ in range(300):
            pos = random_position(rng)
            if A.is_over(pos):
                continue
            legal = {A.move_name(m) for m in A.base_moves(pos)}
            self.assertLessEqual(legal, set(A.engine_candidates(pos)), A.to_fen(pos))

    def test_engine_position_line_is_short(self):
        game = A.Game(A.parse_fen(A.START_FEN))
        rng = random.Random(5)
        while len(game.moves) < 300 and game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
        self.assertGreater(len(game.moves), A.HISTORY_SENT + 10)
        line = A.engine_position_line(game)
        self.assertLess(len(line), 1023)
        self.assertEqual(line.count(" ") - 3, A.HISTORY_SENT)  # "fen", side, "moves"
        base = A.from_engine_fen(line[4:].split(" moves ")[0])
        self.assertEqual(base.board, game.positions[len(game.moves) - A.HISTORY_SENT].board)
        self.assertEqual(A.engine_position_line(A.Game(A.parse_fen(A.START_FEN))), "fen " + ENGINE_START)

    def test_scores(self):
        self.assertEqual(A.score_text(37), "cp 37")
        self.assertEqual(A.score_text(-37), "cp -37")
        self.assertEqual(A.score_text(10000 - 3), "mate 2")
        self.assertEqual(A.score_text(-10000 + 4), "mate -2")


@unittest.skipUnless(os.environ.get("JUNGLE_ENGINE"), "JUNGLE_ENGINE (this project's binary) not set")
class RulesAgainstTheEngine(unittest.TestCase):
    """Our rules here against the `jungle` binary's (`d` lists the legal moves)."""

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
                    game = A.Game(A.parse_fen(A.START_FEN), variant)
                    while True:
                        moves = " moves " + " ".join(game.moves) if game.moves else ""
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
                        ours = game.legal_moves()
                        self.assertEqual(sorted(ours), theirs, f"{variant}: {' '.join(game.moves)}")
                        # Shuffle one animal often, to meet the anti-chase rules.
                        again = [m for m in ours if len(game.history) > 1 and A.parse_move(m)[0] == game.history[-2].to]
                        game.play(rng.choice(again if again and rng.random() < 0.6 else ours))
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
        self.assertEqual(out[-2:], ["bestmove " + A.Game(A.parse_fen("l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b")).legal_moves()[0], "readyok"])

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
        adapter.game = A.Game(A.parse_fen(A.START_FEN))
        adapter.out = io.StringIO()
        adapter.position("startpos moves g3g4".split())
        first = adapter.game
        adapter.position("startpos moves g3g4 a7a6".split())
        self.assertEqual(adapter.game.moves, ["g3g4", "a7a6"])
        self.assertIs(adapter.game.positions[1], first.positions[1])  # kept, not replayed
        self.assertEqual(first.moves, ["g3g4"])  # the old game is not changed
        # An illegal move refuses the whole command: the game stays.
        adapter.position("startpos moves g3g4 a7a6 g4g9".split())
        self.assertIn("position refused: illegal move 'g4g9'", adapter.out.getvalue())
        self.assertEqual(adapter.game.moves, ["g3g4", "a7a6"])
        # Another line or start position starts again.
        adapter.position("startpos moves a3a4".split())
        self.assertEqual(adapter.game.moves, ["a3a4"])
        adapter.position(f"fen {A.START_FEN.replace(' 0 1', ' 7 1')} moves a3a4".split())
        self.assertEqual(adapter.game.position.quiet_plies, 8)

    def test_clock_budget(self):
        adapter = A.Adapter.__new__(A.Adapter)
        adapter.options = {"move overhead": 50}
        adapter.game = A.Game(A.parse_fen(A.START_FEN))
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
        game = A.Game(A.parse_fen(A.START_FEN))
        game.play("g3g4")
        self.assertIn(best[0], game.legal_moves())
        self.assertNotEqual(best[1], "b3b7")
        self.assertIn(best[1], A.Game(A.parse_fen("6l/7/1t5/7/1R5/7/1L5/7/7 r")).legal_moves())


if __name__ == "__main__":
    unittest.main()
