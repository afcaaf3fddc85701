#!/usr/bin/env bash
# A fake engine for the referee tests: never completes the handshake.
while read -r line; do :; done
