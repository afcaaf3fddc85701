#!/usr/bin/env python3
"""The favoured side's W-D-L in a match over a calibrated book.

usage: favoured-side.py BOOK PGN. The book's "eval" is from the side to move's view:
the favoured side is the side to move when it is positive, the other side otherwise."""
import sys, re
book = {}
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    fen, rest = line.split(' ; ', 1)
    ev = int(re.search(r'eval (-?\d+)', rest).group(1))
    stm = fen.split()[1]
    fav = stm if ev > 0 else ('b' if stm == 'r' else 'r')
    book[' '.join(fen.split()[:2])] = fav
w = d = l = 0
for game in open(sys.argv[2]).read().split('[Game ')[1:]:
    fen = re.search(r'\[FEN "([^"]+)"\]', game).group(1)
    res = re.search(r'\[Result "([^"]+)"\]', game).group(1)
    fav = book[' '.join(fen.split()[:2])]
    if res == '1/2-1/2': d += 1
    elif (res == '1-0') == (fav == 'r'): w += 1
    else: l += 1
print(f"favoured side W-D-L {w}-{d}-{l} ({100*w/(w+d+l):.0f}% wins)")
