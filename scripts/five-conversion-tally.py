#!/usr/bin/env python3
"""Who converts won five-animal endings (docs/tablebases.md, "Five animals in play").

Usage: five-conversion-tally.py GAMES.pgn TABLES_DIR

For each game of a `jungle match --pgn` record whose openings are won positions
(books/endgames-5-won.txt), the side the tables say wins (probed with the Python
package from TABLES_DIR), and whether the engine playing that side won, drew or lost.
"""

import re
import sys

import jungle
from jungle import tablebase


def main(pgn, tables):
    tally = {}
    value = {}
    for g in open(pgn).read().split("[Game ")[1:]:
        tag = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
        fen = tag["FEN"]
        if fen not in value:
            value[fen] = tablebase.probe(jungle.Board(fen), directory=tables).wdl
        mover = fen.split()[1]
        winner = mover if value[fen] == "win" else ("b" if mover == "r" else "r")
        engine = tag["Red"] if winner == "r" else tag["Blue"]
        res = tag["Result"]
        t = tally.setdefault(engine, [0, 0, 0])
        if res == ("1-0" if winner == "r" else "0-1"):
            t[0] += 1
        elif res == "1/2-1/2":
            t[1] += 1
        else:
            t[2] += 1
    for e, (w, d, l) in sorted(tally.items()):
        print(f"{e} with the won side: {w} won, {d} drawn, {l} lost of {w + d + l}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
