"""Engines out of process: the native engine over both handshakes, time limits
kept, and engines that misbehave."""

import pathlib
import sys
import time

import pytest

import jungle
from jungle.engine import EngineError, EngineProcess, EngineTimeout

FAKES = pathlib.Path(__file__).parent / "fake_engines"


def fake(name):
    return [sys.executable, str(FAKES / f"{name}.py")]


@pytest.mark.parametrize("proto", ["uci", "jcei"])
def test_the_native_engine_plays_and_analyses(engine_binary, proto):
    with EngineProcess(engine_binary, proto=proto, options={"Hash": 16}) as engine:
        assert engine.name and engine.declares("MultiPV")
        board = jungle.Board()
        result = engine.play(board, nodes=2000)
        assert result.move in board.legal_moves and result.nodes > 0
        lines = engine.analyse(board, depth=6, multipv=2)
        assert [line.multipv for line in lines] == [1, 2]
        assert all(line.depth == 6 and line.pv for line in lines)
        assert lines[0].pv[0] != lines[1].pv[0]
        for line in lines:
            replay = board.copy()
            for m in line.pv:
                replay.push(m)


def test_rules_are_sent_to_the_engine(engine_binary):
    shuffle = "6l/7/1t5/7/7/7/W5R/7/7 r"
    board = jungle.Board(shuffle, rules="jungle-cn")
    for m in "a3a2 g9f9 a2a3 f9f8 a3a2 f8g8 a2a3 g8g9 a3a2 g9f9 a2a3 f9f8".split():
        board.push(m)
    with EngineProcess(engine_binary) as engine:
        for line in engine.analyse(board, depth=5, multipv=6):
            assert line.pv[0].uci() != "a3a2"
        swimming = jungle.Board("l6/7/7/7/7/7/1D5/7/6L r", dog_swims=True)
        moves = {line.pv[0] for line in engine.analyse(swimming, depth=2, multipv=12)}
        assert jungle.Move.from_uci("b3b4") in moves


def test_movetime_and_clock_are_kept(engine_binary):
    with EngineProcess(engine_binary) as engine:
        board = jungle.Board()
        for movetime in (0.05, 0.3):
            started = time.monotonic()
            engine.analyse(board, movetime=movetime)
            assert time.monotonic() - started < movetime + 0.5
        started = time.monotonic()
        result = engine.play(board, clock=(1.0, 1.0), increment=(0.0, 0.0))
        assert time.monotonic() - started < 1.0 and result.move in board.legal_moves


def test_an_engine_past_its_time_is_stopped():
    with EngineProcess(fake("late")) as engine:
        started = time.monotonic()
        with pytest.raises(EngineTimeout):
            engine.play(jungle.Board(), movetime=0.1, margin=0.2)
        assert time.monotonic() - started < 1.5
        # It answered `stop`: it is still usable.
        with pytest.raises(EngineTimeout):
            engine.analyse(jungle.Board(), movetime=0.1, margin=0.1)


def test_a_hanging_engine_is_killed():
    engine = EngineProcess(fake("hang"))
    started = time.monotonic()
    with pytest.raises(EngineTimeout):
        engine.play(jungle.Board(), movetime=0.1, margin=0.1)
    assert time.monotonic() - started < 2.5
    assert engine._process.poll() is not None, "killed"
    with pytest.raises(EngineError):
        engine.play(jungle.Board(), depth=1)
    with pytest.raises(EngineTimeout):
        EngineProcess(fake("hang")).play(jungle.Board(), depth=3, timeout=0.3)


def test_an_illegal_answer_is_an_error():
    with EngineProcess(fake("illegal"), proto="jcei") as engine:
        assert engine.declares("hash") and not engine.declares("MultiPV")
        with pytest.raises(EngineError, match="illegal move"):
            engine.play(jungle.Board(), depth=1)


def test_bad_starts_and_arguments():
    with pytest.raises(EngineError, match="cannot start"):
        EngineProcess("/nonexistent/engine")
    with pytest.raises(ValueError):
        EngineProcess(fake("hang"), proto="xboard")
    with EngineProcess(fake("hang")) as engine:
        for kwargs in ({}, {"depth": 0}, {"nodes": -3}, {"movetime": -1}, {"increment": (1, 1)}):
            with pytest.raises(ValueError):
                engine.play(jungle.Board(), **kwargs)
        with pytest.raises(TypeError, match="movetime must be a number of seconds"):
            engine.play(jungle.Board(), movetime="1")
        over = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
        over.push("d8d9")
        with pytest.raises(ValueError, match="game is over"):
            engine.play(over, depth=1)


def test_refused_options_are_errors(engine_binary):
    with pytest.raises(EngineError, match="refused"):
        EngineProcess(engine_binary, options={"Hash": "lots"})


def test_jungine_over_jcei():
    """jungine (github.com/notune/jungine, C++), when `JUNGINE` names its binary: the
    jcei handshake, its moves and lines read, a game against the engine in process
    refereed by Board."""
    import os

    path = os.environ.get("JUNGINE")
    if not path:
        pytest.skip("JUNGINE is not set")
    with EngineProcess(path, proto="jcei") as jungine:
        board = jungle.Board()
        started = time.monotonic()
        result = jungine.play(board, movetime=0.1)
        assert time.monotonic() - started < 1.1 and result.move in board.legal_moves
        ours = jungle.Engine()
        while not board.is_game_over() and board.ply() < 300:
            if board.turn == "red":
                board.push(jungine.play(board, movetime=0.02).move)
            else:
                board.push(ours.play(board, nodes=5000).move)
        assert board.is_game_over() or board.ply() == 300
        assert jungine.analyse(jungle.Board(), depth=3)[0].depth == 3
