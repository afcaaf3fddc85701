"""Perft through the Python API (push, pop, legal_moves) equals the native figures:
the start position and the labelled suites of tests/ for every variant."""

import pytest

import jungle

# tests/perft.rs's START_COUNTS (depth 0 to 6).
START_COUNTS = [1, 24, 576, 12240, 260099, 5111620, 100453636]

SUITES = {
    "perft_suite.txt": {},
    "perft_suite_dogswims.txt": {"dog_swims": True},
    "perft_suite_trappedloseattack.txt": {"trapped_lose_attack": True},
    "perft_suite_both.txt": {"dog_swims": True, "trapped_lose_attack": True},
}


def python_perft(board, depth):
    """Leaves of the move tree, by push and pop (the last ply counted in bulk, as
    the native perft does)."""
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += python_perft(board, depth - 1)
        board.pop()
    return total


def suite_entries(root, name):
    for raw in (root / "tests" / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        label, fen, *counts = (f.strip() for f in line.split(";"))
        yield label, fen, [(int(d[1:]), int(n)) for d, n in (c.split() for c in counts)]


def test_start_position_to_depth_5_by_push_and_pop():
    board = jungle.Board()
    for depth in range(1, 6):
        assert python_perft(board, depth) == START_COUNTS[depth], depth
    assert board == jungle.Board() and board.ply() == 0


def test_start_position_to_depth_6_by_the_cores_perft():
    assert jungle.Board().perft(6) == START_COUNTS[6]


@pytest.mark.parametrize("name", SUITES)
def test_labelled_suites(repo_root, name):
    entries = list(suite_entries(repo_root, name))
    assert len(entries) >= 5
    for label, fen, counts in entries:
        # Perft counts moves, not draws: the draw rules are off for the count.
        board = jungle.Board(fen, no_capture_plies=0, repetitions=0, **SUITES[name])
        for depth, expected in counts:
            assert board.perft(depth) == expected, (name, label, depth)
            assert python_perft(board, depth) == expected, (name, label, depth)
