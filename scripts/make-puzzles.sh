#!/usr/bin/env bash
# Makes the shipped puzzle set (puzzles/puzzles.txt; protocol.md, "Puzzles"), in
# stages that can each be stopped and run again (every output is written as
# NAME.part and renamed when complete; finished ones are skipped):
#
#   nice -n 10 scripts/make-puzzles.sh DIR [games|mine|tables|select|all]   (default all)
#
# games:  self-play game records to mine, DIR/games/<match>-K.pgn: the engine at full
#         strength against weakened levels and the classical evaluation, 5000 nodes a
#         move, on openings of 9 random plies (`jungle openings --plies 9 --seed 33`:
#         Blue to move, so never a position of the test books, all Red to move), one
#         match under jungle-cn for the anti-chase rules; 3 matches of 1000 games in
#         shards of 200.
# mine:   `jungle puzzles games` over each shard: DIR/mined/<shard>.txt.
# tables: `jungle puzzles tables` from random 3- and 4-animal signatures (built in
#         memory): DIR/tables-3.txt, DIR/tables-3b.txt (every 3-animal signature,
#         two seeds), DIR/tables-4.txt (106 of the 4-animal signatures),
#         DIR/tables-4-s11.txt and DIR/tables-4-s12.txt (60 and 40 more).
# select: `jungle puzzles select` of all of them into puzzles/puzzles.txt, then
#         `jungle puzzles check` of the result.
#
# JUNGLE=path uses that binary (default: target/release/jungle, built first);
# THREADS=k verifies k games or signatures at once (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    sed -n '2,22p' "$0" >&2
    exit 2
fi
DIR=$1
STAGE=${2:-all}
THREADS=${THREADS:-1}
if [ -z "${JUNGLE:-}" ]; then
    cargo build --release --quiet
fi
J=${JUNGLE:-$PWD/target/release/jungle}
mkdir -p "$DIR/games" "$DIR/mined"

GAMES_PER_MATCH=1000
SHARDS=5
NODES=5000
# name | rules | second engine's options
MATCHES=(
    "elo1560|jungle|option.UCI_LimitStrength=true option.UCI_Elo=1560"
    "elo1801|jungle|option.UCI_LimitStrength=true option.UCI_Elo=1801"
    "cn-elo1560|jungle-cn|option.UCI_LimitStrength=true option.UCI_Elo=1560"
)

stage_games() {
    local book=$DIR/openings-9ply.txt
    if [ ! -f "$book" ]; then
        "$J" openings --count 1000 --plies 9 --depth 8 --margin 300 --seed 33 > "$book.part"
        mv "$book.part" "$book"
    fi
    for m in "${MATCHES[@]}"; do
        IFS='|' read -r name rules options <<< "$m"
        for ((k = 1; k <= SHARDS; k++)); do
            local out=$DIR/games/$name-$k.pgn
            [ -f "$out" ] && continue
            # shellcheck disable=SC2086
            "$J" match --engine "cmd=$J name=full" --engine "cmd=$J name=$name $options" \
                --nodes $NODES --games $GAMES_PER_MATCH --shard "$k/$SHARDS" --rules "$rules" \
                --openings "$book" --pgn "$out.part" > "$DIR/games/$name-$k.log"
            mv "$out.part" "$out"
            echo "$(date -u +%FT%TZ) games $name $k/$SHARDS done" >&2
        done
    done
}

stage_mine() {
    for games in "$DIR"/games/*.pgn; do
        local out=$DIR/mined/$(basename "$games" .pgn).txt
        [ -f "$out" ] && continue
        "$J" puzzles games "$games" --out "$out" --threads "$THREADS" 2> "$out.log"
        echo "$(date -u +%FT%TZ) mined $games: $(tail -n 1 "$out")" >&2
    done
}

stage_tables() {
    [ -f "$DIR/tables-3.txt" ] || "$J" puzzles tables --animals 3 --signatures 224 --wins 2 \
        --draws 1 --seed 3 --threads "$THREADS" --out "$DIR/tables-3.txt" 2> "$DIR/tables-3.log"
    [ -f "$DIR/tables-3b.txt" ] || "$J" puzzles tables --animals 3 --signatures 224 --wins 2 \
        --draws 1 --seed 5 --threads "$THREADS" --out "$DIR/tables-3b.txt" 2> "$DIR/tables-3b.log"
    [ -f "$DIR/tables-4.txt" ] || "$J" puzzles tables --animals 4 --signatures 106 --wins 1 \
        --draws 1 --seed 4 --threads "$THREADS" --out "$DIR/tables-4.txt" 2> "$DIR/tables-4.log"
    [ -f "$DIR/tables-4-s11.txt" ] || "$J" puzzles tables --animals 4 --signatures 60 --wins 2 \
        --draws 1 --seed 11 --threads "$THREADS" --out "$DIR/tables-4-s11.txt" \
        2> "$DIR/tables-4-s11.log"
    [ -f "$DIR/tables-4-s12.txt" ] || "$J" puzzles tables --animals 4 --signatures 40 --wins 3 \
        --draws 1 --seed 12 --threads "$THREADS" --out "$DIR/tables-4-s12.txt" \
        2> "$DIR/tables-4-s12.log"
}

stage_select() {
    # The shipped set was chosen from the first 5 shards of elo1560 and the first of
    # elo1801 (what was mined when it was made); more games only add candidates.
    "$J" puzzles select "$DIR"/mined/elo1560-*.txt "$DIR"/mined/elo1801-1.txt \
        "$DIR"/tables-3.txt "$DIR"/tables-3b.txt "$DIR"/tables-4.txt \
        "$DIR"/tables-4-s11.txt "$DIR"/tables-4-s12.txt \
        --count 1200 --seed 1 --out puzzles/puzzles.txt \
        --note "Regenerate: nice -n 10 scripts/make-puzzles.sh DIR (self-play games, mining, tables, this selection)"
    "$J" puzzles check puzzles/puzzles.txt
}

case "$STAGE" in
    games) stage_games ;;
    mine) stage_mine ;;
    tables) stage_tables ;;
    select) stage_select ;;
    all) stage_games; stage_mine; stage_tables; stage_select ;;
    *) echo "unknown stage $STAGE" >&2; exit 2 ;;
esac
