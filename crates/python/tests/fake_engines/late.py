"""A fake engine that answers `go` only when told to `stop` (it ignores its time)."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word in ("uci", "jcei"):
        print("id name Late")
        print("uciok" if word == "uci" else "jceiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "stop":
        print("info depth 1 score cp 0 nodes 1 pv g3g4")
        print("bestmove g3g4", flush=True)
    elif word == "quit":
        break
