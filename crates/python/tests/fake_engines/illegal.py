"""A fake engine that answers every `go` with an illegal move."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word in ("uci", "jcei"):
        print("option name Hash type spin default 16 min 1 max 1024")
        print("uciok" if word == "uci" else "jceiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("info depth 1 score cp 5 nodes 1 pv a1a3")
        print("bestmove a1a3", flush=True)
    elif word == "quit":
        break
