#!/usr/bin/env bash
# A fake engine for the referee tests: answers every go with an illegal move.
while read -r line; do
  case "$line" in
    uci) echo "id name Illegal"; echo "uciok" ;;
    jcei) echo "id name Illegal"; echo "jceiok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 0 pv a1a3"; echo "bestmove a1a3" ;;
    quit) exit 0 ;;
  esac
done
