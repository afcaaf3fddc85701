"""A fake engine that does the handshake and then never answers `go` (nor `stop`)."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word in ("uci", "jcei"):
        print("id name Hang")
        print("uciok" if word == "uci" else "jceiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "quit":
        break
