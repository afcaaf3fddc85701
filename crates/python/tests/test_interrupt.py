"""Ctrl-C stops long calls: a SIGINT during a long search or perft raises
KeyboardInterrupt within a fraction of a second, and the engine works afterwards."""

import os
import signal
import threading
import time

import pytest

import jungle

# A SIGINT reaches Python's handler only in the main thread, where pytest runs tests.
pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                reason="signals are handled in the main thread only")


def interrupted_after(seconds, call):
    """Sends this process SIGINT after `seconds` and runs `call`: how long after the
    signal the KeyboardInterrupt arrived."""
    sent = []

    def send():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    # A process started in the background by a shell (`cmd &`, nohup) inherits SIGINT
    # ignored, and Python then installs no handler: install Python's own for the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, send)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - sent[0]
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_long_analysis_and_the_engine_works_after():
    engine = jungle.Engine(hash_mb=16)
    board = jungle.Board()
    late = interrupted_after(0.3, lambda: engine.analyse(board, movetime=30))
    assert late < 1.0, late
    late = interrupted_after(0.3, lambda: engine.play(board, depth=100))
    assert late < 1.0, late
    # The engine is usable afterwards: a fresh search to its limit.
    lines = engine.analyse(board, depth=5)
    assert lines[0].depth == 5 and lines[0].pv[0] in board.legal_moves


def test_ctrl_c_stops_a_long_perft():
    board = jungle.Board()
    late = interrupted_after(0.3, lambda: board.perft(9))
    assert late < 1.0, late
    assert board.perft(3) == 12240


def test_ctrl_c_stops_waiting_for_a_table_build_which_goes_on():
    from jungle import tablebase
    # Four animals no other test probes: their table is built on this first probe
    # (seconds), and Ctrl-C does not wait for it.
    board = jungle.Board("7/3e3/7/7/7/7/2W4/7/5RT r")
    late = interrupted_after(0.05, lambda: tablebase.probe(board, build=4))
    assert late < 1.0, late
    # The build went on; the next probe finds its table.
    p = tablebase.probe(board, build=4)
    assert p is not None and {v.move for v in p.moves} == set(board.legal_moves)
