#!/usr/bin/env python3
"""Tunes the search's parameters in games by SPSA (as OpenBench does), resumably.

    nice -n 10 scripts/spsa.py STATE.json [--iterations N] [--pairs P]
        [--tc 10s+0.1s | --movetime MS | --nodes N] [--concurrency 2]
        [--book books/calibrated-100k.txt] [--jungle target/release/jungle]
        [--only NAME,NAME...] [--seed S]

The parameters, their defaults, ranges and steps come from `jungle params`
(crates/core/src/search/parameters.rs). Each iteration k perturbs every tuned
parameter by +c_k or -c_k at random, plays P game pairs of the two versions
(`jungle match`, the engine's SearchParams option, the book's openings in order,
colours swapped, the pairs numbered as in one long match through --shard so that no
two iterations share an opening), and moves each parameter by
a_k / c_k * (wins - losses) * its sign. c_k and a_k fall as in OpenBench: c_end and
r_end from `jungle params`, alpha 0.602, gamma 0.101, A = N / 10.

STATE.json is written after every iteration (a new file, then renamed): stop at any
time, and the same command goes on from the last finished iteration, on another
machine too if the file is copied (keep it in git under data/spsa/, since the data
folder can be lost). Settings given when STATE.json was made are kept; --iterations
may be raised later, and --jungle and --book may name the same engine and book at
another path. The state holds the engine's signature (the node count of `jungle
bench`) and the book's SHA-256: a run refuses to go on with another engine or book
(exit 2), since its iterations would not be of one function. Each iteration's history
row is [k, wins, losses, draws, losses on time, seconds]: games lost on time mean the
machine was not idle, and the iteration should be played again. Each line of stdout is one iteration; the last
line is the tuned values as the SearchParams option reads them, which is what to
test in an SPRT against main (`jungle match ... option.SearchParams=...`) before
copying them into SearchParams::DEFAULT.
"""

import argparse
import hashlib
import json
import math
import os
import random
import re
import subprocess
import sys
import time

ALPHA = 0.602
GAMMA = 0.101


def tunables(jungle):
    """The rows of `jungle params`: name -> (default, min, max, c_end, r_end)."""
    try:
        run = subprocess.run([jungle, "params"], capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"error: cannot run {jungle}: {e.strerror}")
    if run.returncode != 0:
        sys.exit(f"error: {jungle} params failed ({run.returncode}): {run.stderr.strip()[-300:]}")
    out = run.stdout
    rows = {}
    for line in out.splitlines():
        name, kind, default, lo, hi, c_end, r_end = [f.strip() for f in line.split(",")]
        if kind != "int":
            sys.exit(f"error: jungle params: parameter {name} is of kind {kind}, not int")
        rows[name] = (int(default), int(lo), int(hi), float(c_end), float(r_end))
    return rows


def bench_nodes(jungle):
    """The engine's signature: the node count of `jungle bench` (its last line)."""
    try:
        out = subprocess.run([jungle, "bench"], capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"error: cannot run {jungle}: {e.strerror}")
    last = out.stdout.strip().splitlines()[-1:] if out.returncode == 0 else []
    if not last or not last[0].split()[0].isdigit():
        sys.exit(f"error: {jungle} bench gave no node count (exit {out.returncode})")
    return int(last[0].split()[0])


def sha256_of(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        sys.exit(f"error: cannot read the book {path}: {e.strerror}")


def params_text(values):
    return ",".join(f"{name}={value}" for name, value in sorted(values.items())) or "<default>"


def play(config, k, plus, minus):
    """Plays iteration k's pairs; returns (wins, losses, draws, losses on time) of
    `plus`, the last of both sides."""
    jungle = config["jungle"]

    def engine(name, values):
        return f"cmd={jungle} name={name} option.Hash=16 option.SearchParams={params_text(values)}"

    pairs = config["pairs"]
    # The pairs of all iterations numbered as one long match: iteration k plays its
    # own range of them, so each iteration gets new openings.
    total_pairs = pairs * config["iterations_planned"]
    command = [
        jungle, "match",
        "--engine", engine("plus", plus),
        "--engine", engine("minus", minus),
        "--games", str(2 * total_pairs),
        # Past the iterations planned at the start (--iterations raised later), the
        # openings come round again.
        "--shard", f"{(k - 1) % config['iterations_planned'] + 1}/{config['iterations_planned']}",
        "--concurrency", str(config["concurrency"]),
        "--openings", config["book"],
    ] + config["limit"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"error: jungle match failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    scores = re.findall(r"^Score of plus vs minus: (\d+) - (\d+) - (\d+)", result.stdout, re.M)
    if not scores:
        sys.exit("error: jungle match printed no score line")
    wins, losses, draws = map(int, scores[-1])
    on_time = sum(int(n) for n in re.findall(r"^Losses of \S+: \d+ by illegal move, (\d+) on time",
                                             result.stdout, re.M))
    return wins, losses, draws, on_time


def save(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("state", help="the state file (made if missing, else resumed)")
    ap.add_argument("--iterations", type=int,
                    help="iterations of the run (default 2000; on resuming, raises the number)")
    ap.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    limit = ap.add_mutually_exclusive_group()
    limit.add_argument("--tc", help="clock per game, e.g. 10s+0.1s (the default)")
    limit.add_argument("--movetime", type=int, help="ms per move")
    limit.add_argument("--nodes", type=int, help="nodes per move")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", help="the openings (default books/calibrated-100k.txt; on "
                    "resuming, the path the state holds)")
    ap.add_argument("--jungle", help="the engine (default target/release/jungle; on resuming, "
                    "the path the state holds)")
    ap.add_argument("--only", help="tune only these parameters (comma-separated)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    if os.path.exists(args.state):
        try:
            with open(args.state) as f:
                state = json.load(f)
            config = state["config"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"error: {args.state} is not a readable SPSA state: {e}")
        if args.iterations is not None and args.iterations > config["iterations"]:
            config["iterations"] = args.iterations
        if args.jungle:
            config["jungle"] = os.path.abspath(args.jungle)
        if args.book:
            config["book"] = os.path.abspath(args.book)
        if "bench" in config:
            bench = bench_nodes(config["jungle"])
            if bench != config["bench"]:
                print(f"error: {config['jungle']} has bench {bench}, the run was started with "
                      f"bench {config['bench']}: another engine", file=sys.stderr)
                sys.exit(2)
        if "book_sha256" in config and sha256_of(config["book"]) != config["book_sha256"]:
            print(f"error: {config['book']} is not the book the run was started with "
                  f"(SHA-256 {config['book_sha256']})", file=sys.stderr)
            sys.exit(2)
        print(f"# resuming {args.state} after iteration {state['k']} of {config['iterations']}",
              file=sys.stderr)
    else:
        if args.iterations is None:
            args.iterations = 2000
        if args.pairs < 1 or args.iterations < 1:
            sys.exit("error: --pairs and --iterations must be at least 1")
        jungle = os.path.abspath(args.jungle or "target/release/jungle")
        book = os.path.abspath(args.book or "books/calibrated-100k.txt")
        rows = tunables(jungle)
        names = sorted(rows) if not args.only else [n.strip() for n in args.only.split(",")]
        for n in names:
            if n not in rows:
                sys.exit(f"error: unknown parameter '{n}' (jungle params lists them)")
        if args.movetime:
            limit_args = ["--movetime", str(args.movetime)]
        elif args.nodes:
            limit_args = ["--nodes", str(args.nodes)]
        else:
            limit_args = ["--tc", args.tc or "10s+0.1s"]
        config = {
            "jungle": jungle,
            "bench": bench_nodes(jungle),
            "book": book,
            "book_sha256": sha256_of(book),
            "pairs": args.pairs,
            "iterations": args.iterations,
            # Fixed when the run starts: the openings of iteration k depend on it.
            "iterations_planned": args.iterations,
            "concurrency": args.concurrency,
            "limit": limit_args,
            "seed": args.seed,
            "params": {n: list(rows[n]) for n in names},
        }
        state = {
            "config": config,
            "k": 0,
            "theta": {n: float(rows[n][0]) for n in names},
            "history": [],
        }
        save(args.state, state)

    n_iter = config["iterations"]
    big_a = 0.1 * n_iter
    while state["k"] < n_iter:
        k = state["k"] + 1
        rng = random.Random(config["seed"] * 1_000_003 + k)
        plus, minus, signs, c_ks, a_ks = {}, {}, {}, {}, {}
        for name, (default, lo, hi, c_end, r_end) in sorted(config["params"].items()):
            c_k = c_end * n_iter**GAMMA / k**GAMMA
            a_k = r_end * c_end**2 * (big_a + n_iter) ** ALPHA / (big_a + k) ** ALPHA
            sign = rng.choice((-1, 1))
            theta = state["theta"][name]
            plus[name] = int(min(hi, max(lo, round(theta + sign * c_k))))
            minus[name] = int(min(hi, max(lo, round(theta - sign * c_k))))
            signs[name], c_ks[name], a_ks[name] = sign, c_k, a_k
        started = time.monotonic()
        wins, losses, draws, on_time = play(config, k, plus, minus)
        for name, (default, lo, hi, c_end, r_end) in config["params"].items():
            step = a_ks[name] / c_ks[name] * (wins - losses) * signs[name]
            state["theta"][name] = min(hi, max(lo, state["theta"][name] + step))
        state["k"] = k
        state["history"].append([k, wins, losses, draws, on_time,
                                 round(time.monotonic() - started, 1)])
        save(args.state, state)
        print(f"iteration {k}/{n_iter}: plus {wins}-{losses}-{draws} "
              + (f"({on_time} lost on time) " if on_time else "")
              + " ".join(f"{n}={state['theta'][n]:.2f}" for n in sorted(state["theta"])),
              flush=True)
    final = {n: int(round(v)) for n, v in state["theta"].items()}
    changed = {n: v for n, v in final.items() if v != config["params"][n][0]}
    print(f"SearchParams {params_text(changed)}")


if __name__ == "__main__":
    main()
