#!/usr/bin/env bash
# A fake engine for the referee tests: never answers go (but answers isready).
while read -r line; do
  case "$line" in
    uci) echo "id name Hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
