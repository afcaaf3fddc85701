#!/usr/bin/env bash
# A fake engine for the referee tests: answers go with a malformed bestmove line.
while read -r line; do
  case "$line" in
    uci) echo "id name Garbage"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove" ;;
    quit) exit 0 ;;
  esac
done
