#!/usr/bin/env bash
# A fake engine for the referee tests: dies when asked to move.
while read -r line; do
  case "$line" in
    uci) echo "id name Crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
    quit) exit 0 ;;
  esac
done
