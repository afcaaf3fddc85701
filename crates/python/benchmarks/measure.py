"""The package's speed figures (docs/python.md, "Speed"), each in one run:

    python crates/python/benchmarks/measure.py perft        # perft through push/pop and the core's
    python crates/python/benchmarks/measure.py playouts     # random playouts: jungle against animalchess
    python crates/python/benchmarks/measure.py vector       # VectorEnv steps per second: self-play, against greedy and level 1
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
    """Game steps per second of VectorEnv, each step with every game's observation
    and mask: self-play at N = 1, 64 and 1024 (a step is one move in every game), and
    at N = 1024 against the greedy player and the engine's level 1 (a step is the
    agent's move and the opponent's answer in every game, so two plies). `step` alone,
    and with the agent's random actions chosen in numpy from the masks (the agent's
    own work, which a network would do instead). The cases take turns, `rounds`
    times, 2 s each; the median is printed, and the CPU time `step` took (all
    threads), which a loaded machine does not inflate as it does the wall time: on
    two idle cores the rate is at most twice the steps per CPU-second."""
    import statistics

    rng = np.random.default_rng(2)
    cases = [("self-play", 1, {}), ("self-play", 64, {}), ("self-play", 1024, {}),
             ("against greedy", 1024, {"opponent": "greedy", "agent_color": "both"}),
             ("against level 1", 1024, {"opponent": jungle.ELO_MIN, "agent_color": "both"})]
    envs = [jungle.VectorEnv(n, max_plies=500, seed=1, **kw) for _, n, kw in cases]
    masks = [env.reset()[1] for env in envs]
    rates = [([], [], []) for _ in cases]
    for _ in range(rounds):
        for k, env in enumerate(envs):
            n = len(env)
            calls = 0
            stepping = cpu = 0.0
            started = time.perf_counter()
            while time.perf_counter() - started < seconds:
                actions = np.argmax(masks[k] * rng.random(masks[k].shape), axis=1).astype(np.int64)
                before, before_cpu = time.perf_counter(), time.process_time()
                _, masks[k], *_ = env.step(actions)
                stepping += time.perf_counter() - before
                cpu += time.process_time() - before_cpu
                calls += 1
            took = time.perf_counter() - started
            rates[k][0].append(n * calls / stepping)
            rates[k][1].append(n * calls / took)
            rates[k][2].append(n * calls / cpu)
    for (name, n, _), (step_only, total, per_cpu) in zip(cases, rates):
        print(f"VectorEnv {name}, N={n}: {statistics.median(step_only):,.0f} game steps/s in step(), "
              f"{statistics.median(total):,.0f} with the random actions chosen in numpy, "
              f"{statistics.median(per_cpu):,.0f} per CPU-second in step() (median of {rounds})")


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
