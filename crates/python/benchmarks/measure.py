"""The package's speed figures (README, section "Python"), each in one run:

    python crates/python/benchmarks/measure.py perft        # perft through push/pop and the core's
    python crates/python/benchmarks/measure.py playouts     # random playouts: jungle against animalchess
    python crates/python/benchmarks/measure.py vector       # VectorEnv steps per second at N = 1, 64, 1024
    python crates/python/benchmarks/measure.py engine-bench # jungle bench's searches through jungle.Engine
    python crates/python/benchmarks/measure.py all

`engine-bench` searches the positions of the native `jungle bench` (depth 13, one
thread, a fresh 16 MB table each, no tablebases) and prints its last line's form,
`<nodes> nodes <nps> nps`: the node count must equal the native bench's, so the
ratio of the two commands' times is the ratio of their speeds.
"""

import pathlib
import sys
import time

import numpy as np

import jungle

TESTS = pathlib.Path(__file__).resolve().parents[1] / "tests"


def python_perft(board, depth):
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += python_perft(board, depth - 1)
        board.pop()
    return total


def perft():
    board = jungle.Board()
    started = time.perf_counter()
    count = python_perft(board, 5)
    took = time.perf_counter() - started
    print(f"perft 5 by push/pop: {count} leaves in {took:.2f} s ({count / took:,.0f} leaves/s)")
    started = time.perf_counter()
    count = board.perft(7)
    took = time.perf_counter() - started
    print(f"perft 7 by Board.perft: {count} leaves in {took:.2f} s ({count / took:,.0f} leaves/s)")


def jungle_playouts(seconds, max_plies, seed=1):
    """Random games with Board: the draw rules off, as animalchess has none."""
    rng = np.random.default_rng(seed)
    games = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        board = jungle.Board(no_capture_plies=0, repetitions=0)
        for _ in range(max_plies):
            moves = board.legal_moves
            if not moves:
                break
            board.push(moves[rng.integers(len(moves))])
            plies += 1
            if board.is_game_over():
                break
        games += 1
    return games, plies, time.perf_counter() - started


def animalchess_playouts(seconds, max_plies, seed=1):
    """Random games with animalchess's own board: every legal move listed each ply
    (its `exhaustively_iterate_available_destinations`), one played; the game ends
    on a den entry, the last animal taken or no move."""
    sys.path.insert(0, str(TESTS))
    import warnings

    from animalchess.chess.board import AnimalChessBoard
    from animalchess.chess.player import Player

    import animalchess_bridge  # noqa: F401  (silences its logger)

    rng = np.random.default_rng(seed)
    games = plies = 0
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while time.perf_counter() - started < seconds:
            board = AnimalChessBoard(Player("red"), Player("blue"))
            player = 0
            for _ in range(max_plies):
                moves = [
                    (info.piece.animal_type, dest)
                    for info in list(board._players_possessions[player].iterate_living_pieces())
                    for dest in board.exhaustively_iterate_available_destinations(player, info.piece.animal_type)
                ]
                if not moves:
                    break
                animal, dest = moves[rng.integers(len(moves))]
                board.move_piece(player, animal, dest)
                plies += 1
                other = 1 - player
                if board._players_possessions[player].winned or not list(
                        board._players_possessions[other].iterate_living_pieces()):
                    break
                player = other
            games += 1
    return games, plies, time.perf_counter() - started


def playouts(seconds=10.0, max_plies=300):
    ours = jungle_playouts(seconds, max_plies)
    theirs = animalchess_playouts(seconds, max_plies)
    for name, (games, plies, took) in (("jungle", ours), ("animalchess", theirs)):
        print(f"{name}: {games} random games, {plies} plies in {took:.1f} s: "
              f"{games / took:,.2f} games/s, {plies / took:,.0f} plies/s, {plies / max(games, 1):.0f} plies a game")
    print(f"jungle/animalchess: {ours[1] / ours[2] / (theirs[1] / theirs[2]):,.0f}x plies/s, "
          f"{ours[0] / ours[2] / (theirs[0] / theirs[2]):,.0f}x games/s")


def vector(seconds=2.0, rounds=5):
    """Game steps per second at N = 1, 64, 1024: the N values in turn, `rounds`
    times, the median printed; `step` alone, and with the random actions chosen in
    numpy from the masks."""
    import statistics

    rng = np.random.default_rng(2)
    sizes = (1, 64, 1024)
    envs = {n: jungle.VectorEnv(n, max_plies=500) for n in sizes}
    masks = {n: envs[n].reset()[1] for n in sizes}
    rates = {n: ([], []) for n in sizes}
    for _ in range(rounds):
        for n in sizes:
            calls = 0
            stepping = 0.0
            started = time.perf_counter()
            while time.perf_counter() - started < seconds:
                actions = np.argmax(masks[n] * rng.random(masks[n].shape), axis=1).astype(np.int64)
                before = time.perf_counter()
                _, masks[n], *_ = envs[n].step(actions)
                stepping += time.perf_counter() - before
                calls += 1
            took = time.perf_counter() - started
            rates[n][0].append(n * calls / stepping)
            rates[n][1].append(n * calls / took)
    for n in sizes:
        step_only, total = (statistics.median(r) for r in rates[n])
        print(f"VectorEnv N={n}: {step_only:,.0f} game steps/s in step(), "
              f"{total:,.0f} with the random actions chosen in numpy (median of {rounds})")


def engine_bench():
    engine = jungle.Engine(tablebases=False, hash_mb=16)
    total = 0
    started = time.perf_counter()
    for fen in jungle.bench_positions():
        engine.new_game()
        total += engine.analyse(jungle.Board(fen), depth=jungle.BENCH_DEPTH)[0].nodes
    took = time.perf_counter() - started
    print(f"{total} nodes {int(total / took)} nps")


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    jobs = {"perft": perft, "playouts": playouts, "vector": vector, "engine-bench": engine_bench}
    if what == "all":
        for job in jobs.values():
            job()
    elif what in jobs:
        jobs[what]()
    else:
        sys.exit(f"unknown measurement {what!r}: {', '.join(jobs)} or all")


if __name__ == "__main__":
    main()
