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
# with its defaults (`name=main`), at TC (default 10s+0.1s) on BOOK (default
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
# RECORDS=dir (in the repository, e.g. data/sprt/se-2026-12) makes the shards outlive
# DIR: each finished shard's record is kept there compressed (NAME-K.txt.xz) with a
# line of RECORDS/manifest.tsv (candidate, shard, games, SHA-256 of the record, the
# binary's bench with the defaults and with the candidate's parameters, the
# parameters). Commit RECORDS. A run restores into DIR every recorded shard it
# lacks (checked against its SHA-256) and keeps its finished shards in RECORDS; it
# refuses to start when the binary's benches are not the manifest's (another engine
# would be summed with this one). PLAY=no restores and keeps, sums up, and plays
# nothing. DIR and RECORDS, when relative, are read from the repository's root.
#
# Clock matches measure the scheduler when the machine is busy: run it on an idle
# machine (no builds, no other matches) and check the "Losses of ... on time" lines.
# JUNGLE=path plays another build (default target/release/jungle); CONCURRENCY=k
# plays k games at once (default 2); GAMES=n makes a shard n games (default 100, even);
# STOP_AFTER=n stops after n shards played (to fit an idle hour).
set -uo pipefail
cd "$(dirname "$0")/.."
RECORDS=${RECORDS:-}
PLAY=${PLAY:-yes}
STOP_AFTER=${STOP_AFTER:-0}
played=0
case "$STOP_AFTER" in
    '' | *[!0-9]*)
        echo "error: STOP_AFTER is a number of shards, got '$STOP_AFTER'" >&2
        exit 2
        ;;
esac
case "$PLAY" in
    yes | no) ;;
    *)
        echo "error: PLAY is yes or no, got '$PLAY'" >&2
        exit 2
        ;;
esac
if [ $# -lt 2 ]; then
    sed -n '2,8p' "$0" >&2
    exit 2
fi
DIR=$1
shift
JUNGLE=${JUNGLE:-target/release/jungle}
TC=${TC:-10s+0.1s}
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

# The engine's signature: bench's node count (its last line, "<nodes> nodes <nps> nps").
bench_of() {
    local nodes
    nodes=$("$JUNGLE" bench "$@" 2> /dev/null | tail -1 | cut -d' ' -f1)
    case "$nodes" in
        '' | *[!0-9]*)
            echo "error: $JUNGLE bench $* gave no node count" >&2
            exit 1
            ;;
    esac
    echo "$nodes"
}

# Keeps finished shard K of NAME in RECORDS (once).
keep_shard() {
    local name=$1 k=$2 file=$DIR/$1-$2.txt
    grep -q "^$name	$k	" "$RECORDS/manifest.tsv" && return 0
    xz -9c "$file" > "$RECORDS/$name-$k.txt.xz.part" && mv "$RECORDS/$name-$k.txt.xz.part" "$RECORDS/$name-$k.txt.xz"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$k" "$(grep -c '^\[Result ' "$file")" \
        "$(sha256sum "$file" | cut -d' ' -f1)" "$main_bench" "${benches[$name]}" "${params[$name]}" \
        >> "$RECORDS/manifest.tsv"
}

if [ -n "$RECORDS" ]; then
    mkdir -p "$RECORDS"
    [ -f "$RECORDS/manifest.tsv" ] ||
        printf 'candidate\tshard\tgames\tsha256\tbench\tbench_candidate\tparams\n' > "$RECORDS/manifest.tsv"
    main_bench=$(bench_of) || exit 1
    declare -A benches
    for name in "${names[@]}"; do
        benches[$name]=$(bench_of --params "${params[$name]}") || exit 1
        # Every recorded shard of this candidate was played by this engine and these
        # parameters.
        if awk -F'\t' -v n="$name" -v b="$main_bench" -v c="${benches[$name]}" -v p="${params[$name]}" \
            'NR > 1 && $1 == n && ($5 != b || $6 != c || $7 != p) { bad = 1 } END { exit !bad }' \
            "$RECORDS/manifest.tsv"; then
            echo "error: $RECORDS/manifest.tsv has shards of $name from another engine or parameters" \
                "(bench $main_bench, with ${params[$name]} ${benches[$name]} here)" >&2
            exit 2
        fi
        while IFS=$'\t' read -r candidate k _games sha _rest; do
            [ "$candidate" = "$name" ] || continue
            out=$DIR/$name-$k.txt
            [ -f "$out" ] && continue
            if ! xz -dc "$RECORDS/$name-$k.txt.xz" > "$out.restore"; then
                echo "error: cannot read $RECORDS/$name-$k.txt.xz, shard $k of $name" >&2
                rm -f "$out.restore"
                exit 1
            fi
            if [ "$(sha256sum "$out.restore" | cut -d' ' -f1)" != "$sha" ]; then
                echo "error: $RECORDS/$name-$k.txt.xz does not match its SHA-256 in the manifest" >&2
                rm -f "$out.restore"
                exit 1
            fi
            mv "$out.restore" "$out"
            echo "restored shard $k of $name from $RECORDS" >&2
        done < "$RECORDS/manifest.tsv"
        # By number: a glob of NAME-*.txt would take the shards of a candidate
        # named NAME-something too.
        for k in $(seq 1 $SHARDS); do
            [ -f "$DIR/$name-$k.txt" ] && keep_shard "$name" "$k"
        done
    done
fi

for k in $(seq 1 $SHARDS); do
    for name in "${names[@]}"; do
        [ -f "$DIR/$name.decided" ] && continue
        out=$DIR/$name-$k.txt
        if [ ! -f "$out" ]; then
            [ "$PLAY" = no ] && continue
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
            [ -n "$RECORDS" ] && keep_shard "$name" "$k"
            played=$((played + 1))
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
        if [ "$STOP_AFTER" -gt 0 ] && [ "$played" -ge "$STOP_AFTER" ]; then
            exit 0
        fi
    done
done
