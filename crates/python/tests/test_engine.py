"""The engine in process: typed analysis lines, play, strength levels, time limits
kept, the GIL released during a search, stop from another thread."""

import threading
import time

import pytest

import jungle


@pytest.fixture(scope="module")
def engine():
    return jungle.Engine(hash_mb=16)


def test_analyse_returns_typed_lines(engine):
    board = jungle.Board()
    lines = engine.analyse(board, depth=8, multipv=3)
    assert [line.multipv for line in lines] == [1, 2, 3]
    for line in lines:
        assert line.depth == 8 and line.seldepth >= 8
        assert line.nodes > 0 and line.time >= 0 and line.nps >= 0
        assert isinstance(line.score, jungle.Score) and line.score.cp is not None and line.score.mate is None
        assert line.score.bound == "exact"
        assert all(isinstance(m, jungle.Move) for m in line.pv)
        # Every principal variation is a legal line.
        replay = board.copy()
        for m in line.pv:
            replay.push(m)
    assert len({line.pv[0] for line in lines}) == 3
    assert lines[0].score.cp >= lines[1].score.cp >= lines[2].score.cp


def test_mate_scores_count_moves(engine):
    lines = engine.analyse(jungle.Board("l5t/7/3R3/7/7/7/7/7/6L r"), depth=6)
    assert lines[0].score.mate == 2 and lines[0].score.is_mate()
    assert [m.uci() for m in lines[0].pv[:1]] == ["d7d8"]
    lines = engine.analyse(jungle.Board("l5t/3R3/7/7/7/7/7/7/6L b"), depth=4)
    assert lines[0].score.mate == -1


def test_node_limit_is_exact_and_repeatable():
    board = jungle.Board()
    runs = []
    for _ in range(2):
        engine = jungle.Engine(tablebases=False)
        runs.append(engine.analyse(board, nodes=5000)[0])
    assert runs[0].nodes == runs[1].nodes == 5000
    assert runs[0].pv == runs[1].pv


def test_play_returns_a_legal_move(engine):
    board = jungle.Board()
    result = engine.play(board, depth=6)
    assert result.move in board.legal_moves
    assert isinstance(result.move, jungle.Move) and result.depth == 6 and result.nodes > 0
    board.push(result.move)
    if result.ponder is not None:
        assert result.ponder in board.legal_moves
    with pytest.raises(ValueError, match="game is over"):
        engine.play(_over(), depth=2)


def _over():
    board = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    board.push("d8d9")
    return board


def test_analyse_stops_on_time(engine):
    board = jungle.Board()
    for movetime in (0.05, 0.3):
        started = time.monotonic()
        lines = engine.analyse(board, movetime=movetime)
        took = time.monotonic() - started
        # The search stops on its own clock; the margin is for a loaded machine.
        assert took < movetime + 0.5, (movetime, took)
        assert lines and lines[0].depth >= 1
    started = time.monotonic()
    result = engine.play(board, clock=(0.5, 0.5), increment=(0, 0))
    assert time.monotonic() - started < 0.5
    assert result.move in board.legal_moves


def test_the_search_releases_the_gil(engine):
    """A Python thread counts while the engine searches on another."""
    count = 0
    done = threading.Event()

    def search():
        engine.analyse(jungle.Board(), movetime=0.5)
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(0.05)
    while not done.is_set():
        count += 1
    thread.join()
    # Holding the GIL, the search would have let this loop run only in the
    # interpreter's switch intervals (5 ms each): a few hundred steps at most.
    assert count > 100_000, count


def test_stop_from_another_thread(engine):
    board = jungle.Board()
    timer = threading.Timer(0.2, engine.stop)
    started = time.monotonic()
    timer.start()
    lines = engine.analyse(board, depth=100)
    took = time.monotonic() - started
    assert took < 2.0, took
    assert lines and lines[0].pv


def test_strength_levels_limit_the_search():
    levels = jungle.LEVELS
    assert levels[0][0] == jungle.ELO_MIN and levels[-1][0] == jungle.ELO_MAX
    weakest = jungle.Engine(elo=jungle.ELO_MIN)
    board = jungle.Board()
    result = weakest.play(board, movetime=1.0)
    assert result.move in board.legal_moves
    assert result.depth <= levels[0][1], "the weakest level searches one ply"
    # The weakest level plays more than one move from the same position.
    moves = {weakest.play(board, movetime=1.0).move for _ in range(12)}
    assert len(moves) > 1
    skilled = jungle.Engine(skill_level=0)
    assert skilled.play(board, depth=20).depth <= levels[0][1]
    full = jungle.Engine()
    assert full.play(board, depth=5).depth == 5


def test_variants_are_searched_under_their_rules():
    engine = jungle.Engine()
    # After the 7-3 shuffle the wolf may not return to a2: the engine never plays it.
    board = jungle.Board("6l/7/1t5/7/7/7/W5R/7/7 r", rules="jungle-cn")
    for m in "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8".split():
        board.push(m)
    for line in engine.analyse(board, depth=6, multipv=4):
        assert line.pv[0].uci() != "a3a2"
    swimming = jungle.Board("l6/7/7/7/7/7/1D5/7/6L r", dog_swims=True)
    moves = {line.pv[0] for line in engine.analyse(swimming, depth=3, multipv=10)}
    assert jungle.Move.from_uci("b3b4") in moves


def test_bad_engine_arguments_raise_value_error(engine):
    board = jungle.Board()
    for kwargs in ({"threads": 0}, {"hash_mb": 0}, {"elo": 1}, {"elo": 10_000}, {"skill_level": 21},
                   {"eval": "magic"}, {"elo": 1500, "skill_level": 3}):
        with pytest.raises(ValueError):
            jungle.Engine(**kwargs)
    for kwargs in ({}, {"depth": 0}, {"depth": 1000}, {"nodes": 0}, {"movetime": -1},
                   {"movetime": float("nan")}, {"depth": 3, "multipv": 0}, {"depth": 3, "multipv": 100}):
        with pytest.raises(ValueError):
            engine.analyse(board, **kwargs)
    with pytest.raises(ValueError, match="increment needs clock"):
        engine.play(board, increment=(1, 1))
    with pytest.raises(ValueError):
        engine.play(board, clock=(-1, 5))


def test_bench_positions_search_as_the_native_bench(engine_binary):
    """The same searches as `jungle bench` (one thread, a fresh 16 MB table per
    position, no tablebases, depth 13) count the same nodes, position by position."""
    import json
    import subprocess

    out = subprocess.run([engine_binary, "bench", "--json"], capture_output=True, text=True, check=True, timeout=600)
    native = json.loads(out.stdout.strip().splitlines()[-1])
    positions = jungle.bench_positions()
    assert [p["fen"] for p in native["positions"]] == positions
    engine = jungle.Engine(tablebases=False, hash_mb=16)
    for fen, row in zip(positions, native["positions"]):
        engine.new_game()
        line = engine.analyse(jungle.Board(fen), depth=native["depth"])[0]
        assert line.nodes == row["nodes"], fen
        assert line.pv[0].uci() == row["bestmove"], fen
