"""Tablebase probes: built in memory as the engine builds them."""

import pytest

import jungle
from jungle import tablebase


def test_probe_gives_value_dtm_dtz_and_every_move():
    # protocol.md's example: Red's lion against a blue elephant.
    board = jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r")
    p = tablebase.probe(board)
    assert p.wdl == "win" and p.dtm > 0 and p.dtm % 2 == 1 and p.dtz is not None
    assert {v.move for v in p.moves} == set(board.legal_moves)
    best = p.moves[0]
    assert best.wdl == "win" and best.dtm == p.dtm
    # The best move keeps the win one ply shorter: the reply loses in dtm - 1.
    board.push(best.move)
    reply = tablebase.probe(board)
    assert reply.wdl == "loss" and reply.dtm == -(p.dtm - 1)


def test_probe_agrees_with_the_engine_on_a_mate():
    board = jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r")
    p = tablebase.probe(board)
    line = jungle.Engine().analyse(board, depth=10)[0]
    assert line.score.mate == (p.dtm + 1) // 2


def test_positions_the_tables_do_not_cover():
    assert tablebase.probe(jungle.Board()) is None  # 16 animals
    over = jungle.Board("l5t/3R3/7/7/7/7/7/7/6L r")
    over.push("d8d9")
    assert tablebase.probe(over) is None
    with pytest.raises(ValueError, match="anti-chase"):
        tablebase.probe(jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r", rules="jungle-cn"))
    with pytest.raises(ValueError):
        tablebase.probe(jungle.Board("7/3e3/7/7/7/7/2L4/7/6R r"), build=5)


def test_variants_have_their_own_tables():
    # A dog that swims: the tables of the variant.
    board = jungle.Board("7/3e3/7/7/7/7/2D4/7/6R r", dog_swims=True)
    p = tablebase.probe(board)
    assert p is not None and p.wdl in ("win", "cursed win", "draw", "blessed loss", "loss")
    assert {v.move for v in p.moves} == set(board.legal_moves)


def test_four_animals_when_asked():
    board = jungle.Board("7/3e3/7/7/7/7/2L4/7/5RT r")
    assert tablebase.probe(board) is None
    p = tablebase.probe(board, build=4)
    assert p is not None and {v.move for v in p.moves} == set(board.legal_moves)


def test_five_animals_from_files_agree_with_the_engine(engine_binary, repo_root):
    # The five-animal table of tests/tablebases_five.rs, in the same folder: built by
    # `jungle tb build` the first time (minutes), checked and kept after.
    import subprocess

    folder = repo_root / "target" / "tmp" / "tables-five"
    subprocess.run(
        [engine_binary, "tb", "build", "--material", "WDC v DC", "--dir", str(folder), "--threads", "2"],
        check=True,
        capture_output=True,
        timeout=1800,
    )
    for fen, wdl, dtm in [("7/7/d5c/7/7/7/WD4C/7/7 r", "win", 17), ("7/7/d5c/7/7/7/WD4C/7/7 b", "loss", -22)]:
        board = jungle.Board(fen)
        assert tablebase.probe(board) is None  # five animals: files only
        p = tablebase.probe(board, directory=folder)
        assert (p.wdl, p.dtm) == (wdl, dtm)
        out = subprocess.run(
            [engine_binary, "tb", "probe", "--fen", fen, "--dir", str(folder)],
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        ).stdout.splitlines()
        assert f"Value: {wdl}" in out
        listed = out[out.index(next(l for l in out if l.startswith("Moves: "))) + 1 :]

        def plies(n):
            return "-" if n is None else str(abs(n))

        mine = [f"{v.move} {v.wdl.replace(' ', '-')} dtm {plies(v.dtm)} dtz {plies(v.dtz)}" for v in p.moves]
        assert mine == listed
        assert {v.move for v in p.moves} == set(board.legal_moves)
