#!/usr/bin/env bash
# SPRTs of search-parameter candidates against the engine's defaults, played in shards
# that survive a stopped session (issue 45: "on leftover machine time").
#
#   scripts/sprt-shards.sh DIR NAME=SEARCHPARAMS [NAME=SEARCHPARAMS ...]
#
# e.g. scripts/sprt-shards.sh /work/data/sprt-cands ch=cont_history=100 \
#          "se=singular_depth=7,singular_margin=2"
#
# Each candidate NAME plays `option.SearchParams=SEARCHPARAMS` against the same binary
# with its defaults (`name=main`), at TC (default 10+0.1) on BOOK (default
# books/calibrated-100k.txt), in shards of 100 games (`jungle match --shard K/40` of a
# 4000-game match: every shard has its own openings). The candidates take turns, a
# shard each (NAME1 shard 1, NAME2 shard 1, ..., NAME1 shard 2, ...). After each shard
# `jungle replay --sprt` over that candidate's finished shards writes DIR/NAME.summary
# and a line to DIR/progress.log; a candidate whose SPRT (elo0=0 elo1=5 alpha=0.05
# beta=0.05) is decided gets DIR/NAME.decided and plays no more.
#
# Resumable: a finished shard (DIR/NAME-K.txt) is never played again; an unfinished
# one (DIR/NAME-K.txt.part) is played again from its start; a resumed run sums up
# again only the last finished shard of each candidate. Stop it at any time; run
# the same command to go on, on this machine or another with DIR copied.
#
# Clock matches measure the scheduler when the machine is busy: run it on an idle
# machine (no builds, no other matches) and check the "Losses of ... on time" lines.
# JUNGLE=path plays another build (default target/release/jungle); CONCURRENCY=k
# plays k games at once (default 2); GAMES=n makes a shard n games (default 100, even).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    sed -n '2,8p' "$0" >&2
    exit 2
fi
DIR=$1
shift
JUNGLE=${JUNGLE:-target/release/jungle}
TC=${TC:-10+0.1}
BOOK=${BOOK:-books/calibrated-100k.txt}
CONCURRENCY=${CONCURRENCY:-2}
GAMES=${GAMES:-100}
SPRT="elo0=0 elo1=5 alpha=0.05 beta=0.05"
SHARDS=40
names=()
declare -A params
for candidate in "$@"; do
    name=${candidate%%=*}
    value=${candidate#*=}
    if [ -z "$name" ] || [ "$name" = "$candidate" ] || [ -z "$value" ]; then
        echo "error: a candidate is NAME=SEARCHPARAMS, got '$candidate'" >&2
        exit 2
    fi
    case "$name" in
        main | *[!A-Za-z0-9_-]*)
            echo "error: candidate name '$name': letters, digits, - and _ only, not main" >&2
            exit 2
            ;;
    esac
    names+=("$name")
    params[$name]=$value
done
if [ ! -x "$JUNGLE" ]; then
    echo "error: no engine at $JUNGLE (cargo build --release, or JUNGLE=path)" >&2
    exit 2
fi
# A wrong parameter is refused here, before any game.
for name in "${names[@]}"; do
    if ! "$JUNGLE" bench --depth 1 --params "${params[$name]}" > /dev/null; then
        echo "error: candidate $name: its SearchParams are refused (jungle params lists them)" >&2
        exit 2
    fi
done
mkdir -p "$DIR"

for k in $(seq 1 $SHARDS); do
    for name in "${names[@]}"; do
        [ -f "$DIR/$name.decided" ] && continue
        out=$DIR/$name-$k.txt
        if [ ! -f "$out" ]; then
            if ! "$JUNGLE" match \
                --engine "cmd=$JUNGLE name=$name option.SearchParams=${params[$name]} option.Hash=32" \
                --engine "cmd=$JUNGLE name=main option.Hash=32" \
                --games $((SHARDS * GAMES)) --shard "$k/$SHARDS" --tc "$TC" \
                --concurrency "$CONCURRENCY" --openings "$BOOK" --maxmoves 300 \
                --pgn "$out.part" > "$DIR/$name-$k.log" 2>&1; then
                echo "error: shard $k of $name failed: $DIR/$name-$k.log" >&2
                exit 1
            fi
            mv "$out.part" "$out"
        elif [ -f "$DIR/$name-$((k + 1)).txt" ]; then
            # Finished and followed by a finished shard: summed up before (a resumed
            # run logs no line twice).
            continue
        fi
        files=()
        for j in $(seq 1 "$k"); do
            [ -f "$DIR/$name-$j.txt" ] && files+=("$DIR/$name-$j.txt")
        done
        # shellcheck disable=SC2086
        "$JUNGLE" replay --sprt $SPRT "${files[@]}" 2>&1 | tail -6 > "$DIR/$name.summary"
        echo "$(date -u +%FT%TZ) $name shard $k: $(grep -E '^Score|^SPRT' "$DIR/$name.summary" | tr '\n' ' ')" \
            >> "$DIR/progress.log"
        grep -q "was accepted" "$DIR/$name.summary" && touch "$DIR/$name.decided"
    done
done
