"""Legal moves agree with the pure-Python `animalchess` package (PyPI) on random
positions, wherever their rules coincide; every disagreement is one of the rule
differences `animalchess_bridge` lists."""

import collections

import numpy as np
import pytest

import jungle

bridge = pytest.importorskip("animalchess_bridge", reason="animalchess needs Python 3.11")


def random_positions(games, seed):
    rng = np.random.default_rng(seed)
    for _ in range(games):
        board = jungle.Board(no_capture_plies=0, repetitions=0)
        for _ in range(int(rng.integers(0, 160))):
            moves = board.legal_moves
            if not moves:
                break
            board.push(moves[rng.integers(len(moves))])
            if board.is_game_over():
                board.pop()
                break
        yield board


def compare(games, seed):
    stats = collections.Counter()
    for board in random_positions(games, seed):
        ours = {m.uci() for m in board.legal_moves}
        theirs = bridge.its_moves(board)
        stats["positions"] += 1
        stats["moves"] += len(ours)
        differing = ours ^ theirs
        if not differing:
            stats["identical"] += 1
        for text in differing:
            kind = bridge.difference_kind(board, text)
            assert kind is not None, (board.fen(), text, text in ours)
            stats[kind] += 1
    return stats


def test_legal_moves_agree_where_the_rules_coincide():
    stats = compare(games=300, seed=11)
    assert stats["positions"] == 300 and stats["moves"] > 3000
    # Most random positions have no case the rules treat differently.
    assert stats["identical"] > 0.8 * stats["positions"], stats
