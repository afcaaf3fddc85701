#!/usr/bin/env python3
"""Endgame positions from recorded games, and how often games reach few animals.

Reads record files written by `jungle match --pgn`, replays every game with the
engine (`position fen … moves …` then `d`, whose `Fen:` line gives the position),
and

- prints, per file and in all, how many games reached a position with at most
  `--few` animals (default 4) before they ended;
- with `--out FILE`, writes an openings file for `jungle match --openings`: from each
  game the first position with between `--min` and `--max` animals (default 4-6)
  that is still being played (one for each number of animals in that range the
  game passes through), with both sides still having animals, and with
  `--every N` also every N-th ply after such a position while the game stays in
  the range. Positions that repeat (same board and side to move) are written once.
  With `--depth D`, each is searched to depth D without tables (`TablebaseProbeLimit
  0`) and kept only when the search finds no mate and scores it within
  `--max-score` centipawns (default 800): the positions still to be played out.

    scripts/endgame-suite.py --engine target/release/jungle --every 8 --depth 10 \
        --out books/endgames.txt records1.txt records2.txt

Only records of the default rules (`[Rules "jungle"]`) are read.
"""

import argparse
import subprocess
import sys


def parse_records(path):
    """Yields (fen, moves, rules) for every game of a record file."""
    fen = None
    rules = "jungle"
    moves = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("[Game "):
                if fen is not None:
                    yield fen, moves, rules
                fen, rules, moves = None, "jungle", []
            elif line.startswith("[FEN "):
                fen = line[len('[FEN "'):-2]
            elif line.startswith("[Rules "):
                rules = line[len('[Rules "'):-2]
            elif line.startswith("["):
                continue
            elif line:
                for tok in line.split():
                    if tok.endswith(".") or tok in ("1-0", "0-1", "1/2-1/2", "*"):
                        continue
                    moves.append(tok)
    if fen is not None:
        yield fen, moves, rules


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def board(self, fen, moves):
        """The `Fen:` and `State:` lines of `d` after the moves."""
        line = "position fen " + fen + (" moves " + " ".join(moves) if moves else "")
        self.p.stdin.write(line + "\nd\n")
        fen_line = state = None
        while state is None:
            out = self.p.stdout.readline()
            if not out:
                sys.exit("the engine ended")
            if out.startswith("info string error"):
                sys.exit(f"the engine refused: {line}: {out.strip()}")
            if out.startswith("Fen: "):
                fen_line = out[5:].strip()
            elif out.startswith("State: "):
                state = out[7:].strip()
        return fen_line, state

    def score(self, fen, depth):
        """The last score of `go depth` from `fen` without tables: ("cp"|"mate", n)."""
        self.p.stdin.write("setoption name TablebaseProbeLimit value 0\nucinewgame\n"
                           f"position fen {fen}\ngo depth {depth}\n")
        last = None
        while True:
            out = self.p.stdout.readline()
            if not out:
                sys.exit("the engine ended")
            words = out.split()
            if words and words[0] == "info" and "score" in words:
                k = words.index("score")
                last = (words[k + 1], int(words[k + 2]))
            elif words and words[0] == "bestmove":
                return last

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        self.p.wait()


def animals(fen):
    """Animals of each side in a position string (Red upper case, Blue lower)."""
    board = fen.split()[0]
    red = sum(1 for ch in board if ch.isalpha() and ch.isupper())
    blue = sum(1 for ch in board if ch.isalpha() and ch.islower())
    return red, blue


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--engine", default="target/release/jungle")
    ap.add_argument("--out")
    ap.add_argument("--few", type=int, default=4)
    ap.add_argument("--min", type=int, default=4)
    ap.add_argument("--max", type=int, default=6)
    ap.add_argument("--every", type=int, default=0)
    ap.add_argument("--depth", type=int, default=0)
    ap.add_argument("--max-score", type=int, default=800)
    args = ap.parse_args()

    engine = Engine(args.engine)
    suite, seen = [], set()
    total_games = total_few = 0
    for path in args.files:
        games = few = 0
        for fen, moves, rules in parse_records(path):
            if rules != "jungle":
                continue
            games += 1
            reached_few = False
            taken = set()
            since = None  # plies since the last position taken
            for ply in range(len(moves) + 1):
                pos, state = engine.board(fen, moves[:ply])
                if not state.startswith("ongoing"):
                    break
                red, blue = animals(pos)
                n = red + blue
                if n <= args.few:
                    reached_few = True
                in_range = args.min <= n <= args.max and red and blue
                since = None if since is None else since + 1
                due = args.every and since is not None and since >= args.every
                if in_range and (n not in taken or due):
                    taken.add(n)
                    since = 0
                    # Counted from move 1 again (a game from it gets the whole
                    # --maxmoves); the no-capture count is the game's.
                    board, side, halfmove = pos.split()[:3]
                    key = board + " " + side
                    if key not in seen:
                        seen.add(key)
                        suite.append((f"{board} {side} {halfmove} 1", n, path))
                if n < args.min:
                    break
            few += reached_few
        print(f"{path}: {games} games, {few} reached {args.few} or fewer animals"
              + (f" ({100.0 * few / games:.1f}%)" if games else ""))
        total_games += games
        total_few += few
    if total_games:
        print(f"all: {total_games} games, {total_few} reached {args.few} or fewer animals "
              f"({100.0 * total_few / total_games:.1f}%)")
    if args.depth:
        kept = []
        for pos, n, path in suite:
            score = engine.score(pos, args.depth)
            if score and score[0] == "cp" and abs(score[1]) <= args.max_score:
                kept.append((pos, n, path))
        print(f"{len(kept)} of {len(suite)} positions: no mate and within "
              f"{args.max_score} cp at depth {args.depth}")
        suite = kept
    engine.close()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(f"# Endgame suite: {len(suite)} positions with {args.min}-{args.max} animals "
                    "from the engine's own games (scripts/endgame-suite.py: the first position "
                    "with each number of animals in the range"
                    + (f", then every {args.every}th ply" if args.every else "")
                    + (f"; kept when depth {args.depth} without tables finds no mate and "
                       f"scores within {args.max_score} cp" if args.depth else "")
                    + ").\n")
            f.write("# Regenerate: scripts/endgame-suite.py " + " ".join(sys.argv[1:]) + "\n")
            for pos, n, _ in suite:
                f.write(f"{pos} ; animals {n}\n")
        print(f"wrote {len(suite)} positions to {args.out}")


if __name__ == "__main__":
    main()
