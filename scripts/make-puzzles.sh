#!/usr/bin/env bash
# Makes the shipped puzzle set (puzzles/puzzles.txt; protocol.md, "Puzzles"), in
# stages that can each be stopped and run again (every output is written as
# NAME.part and renamed when complete; finished ones are skipped):
#
#   nice -n 10 scripts/make-puzzles.sh DIR [games|mine|tables|themes|select|all]
#
# games:  game records to mine, DIR/games/<match>-K.pgn: the levels people play
#         (weakened rows of LEVELS) against each other and against full strength,
#         under jungle and jungle-cn (MATCHES below), 5000 nodes a move, on openings
#         of 9 random plies (`jungle openings --plies 9 --seed 33`: Blue to move, so
#         never a position of the test books); 10 matches of 2000 games in shards of
#         200, played shard by shard over the matches.
# mine:   `jungle puzzles games` over each shard (positions with 6 animals or more,
#         either side to move, up to 3 puzzles a game): DIR/mined/<shard>.txt, in the
#         same order; two runs at once share the work (a shard whose log was written
#         in the last 5 minutes is left to the other).
# tables: `jungle puzzles tables` from random 3- and 4-animal signatures (built in
#         memory): DIR/tables-3.txt, DIR/tables-3b.txt (every 3-animal signature,
#         two seeds), DIR/tables-4.txt (106 of the 4-animal signatures),
#         DIR/tables-4-s11.txt and DIR/tables-4-s12.txt (60 and 40 more).
# themes: the rare themes: DIR/tables-4-blocked-jump.txt and DIR/tables-4-no-moves.txt
#         (`jungle puzzles tables --theme`, every position of 7 and 5 signatures), and
#         DIR/themes-composed.txt, the anti-chase puzzles of the two composed games of
#         scripts/puzzle-themes.pgn.
# select: `jungle puzzles select` of DIR/previous-set.txt (the set before this one,
#         from git: its puzzles from the tables and from the games of then), the mined
#         shards, the themes' files and any tables files into puzzles/puzzles.txt (at
#         least half from games, the most alike puzzles from the tables dropped), then
#         `jungle puzzles check` of the result.
#
# JUNGLE=path uses that binary (default: target/release/jungle, built first);
# THREADS=k verifies k games or signatures at once (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    sed -n '2,33p' "$0" >&2
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

# The most puzzles in the set (fewer when the games do not give half of it).
COUNT=1000
GAMES_PER_MATCH=2000
SHARDS=10
NODES=5000
# name | rules | first engine | second engine: the levels people play (weakened rows of
# `LEVELS`, by their row number in protocol.md's table, 1 the weakest) against each
# other and against full strength ("full"). Each row's `UCI_Elo` is read from `LEVELS`,
# so the matches follow the rows when the levels are measured again.
MATCHES=(
    "r4-r6|jungle|4|6"
    "r5-r7|jungle|5|7"
    "cn-r5-r6|jungle-cn|5|6"
    "r6-r8|jungle|6|8"
    "cn-r7-r8|jungle-cn|7|8"
    "full-r5|jungle|full|5"
    "full-r6|jungle|full|6"
    "full-r7|jungle|full|7"
    "cn-full-r5|jungle-cn|full|5"
    "cn-full-r7|jungle-cn|full|7"
)
mapfile -t ROW_ELO < <(grep -oP '^\s*elo: \K[0-9]+' crates/core/src/search/strength.rs)
[ "${#ROW_ELO[@]}" -ge 8 ] || {
    echo "make-puzzles.sh: cannot read the rows of LEVELS from crates/core/src/search/strength.rs" >&2
    exit 2
}

# The engine options of a player: "full" or a row number.
player_options() {
    [ "$1" = full ] || echo "option.UCI_LimitStrength=true option.UCI_Elo=${ROW_ELO[$1 - 1]}"
}

stage_games() {
    local book=$DIR/openings-9ply.txt
    if [ ! -f "$book" ]; then
        "$J" openings --count 3000 --plies 9 --depth 8 --margin 300 --seed 33 > "$book.part"
        mv "$book.part" "$book"
    fi
    # Shard by shard over the matches, so that every match has games early on.
    for ((k = 1; k <= SHARDS; k++)); do
        for m in "${MATCHES[@]}"; do
            IFS='|' read -r name rules first second <<< "$m"
            local out=$DIR/games/$name-$k.pgn
            [ -f "$out" ] && continue
            "$J" match --engine "cmd=$J name=row-$first $(player_options "$first")" \
                --engine "cmd=$J name=row-${second}b $(player_options "$second")" \
                --nodes $NODES --games $GAMES_PER_MATCH --shard "$k/$SHARDS" --rules "$rules" \
                --openings "$book" --pgn "$out.part" > "$DIR/games/$name-$k.log"
            mv "$out.part" "$out"
            echo "$(date -u +%FT%TZ) games $name $k/$SHARDS done" >&2
        done
    done
}

stage_mine() {
    # In the order the games are played: the weakened levels against each other
    # first (they miss wins, so their games give the most puzzles).
    for ((k = 1; k <= SHARDS; k++)); do
        for m in "${MATCHES[@]}"; do
            local name=${m%%|*}
            local games=$DIR/games/$name-$k.pgn out=$DIR/mined/$name-$k.txt
            [ -f "$games" ] && [ ! -f "$out" ] || continue
            # Another run at it (its log written in the last 5 minutes): leave it.
            [ -n "$(find "$out.log" -mmin -5 2> /dev/null)" ] && continue
            "$J" puzzles games "$games" --out "$out" --threads "$THREADS" 2> "$out.log"
            echo "$(date -u +%FT%TZ) mined $games: $(tail -n 1 "$out")" >&2
        done
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

stage_themes() {
    [ -f "$DIR/themes-composed.txt" ] || "$J" puzzles games scripts/puzzle-themes.pgn \
        --min-animals 2 --tb-animals 0 --out "$DIR/themes-composed.txt" \
        2> "$DIR/themes-composed.log"
    [ -f "$DIR/tables-4-blocked-jump.txt" ] || "$J" puzzles tables --animals 4 \
        --signatures 7 --wins 2 --draws 0 --tries 100000000 --theme blocked-jump --seed 7 \
        --threads "$THREADS" --out "$DIR/tables-4-blocked-jump.txt" \
        2> "$DIR/tables-4-blocked-jump.log"
    [ -f "$DIR/tables-4-no-moves.txt" ] || "$J" puzzles tables --animals 4 \
        --signatures 5 --wins 1 --draws 0 --tries 100000000 --theme no-moves --seed 9 \
        --threads "$THREADS" --out "$DIR/tables-4-no-moves.txt" \
        2> "$DIR/tables-4-no-moves.log"
}

# The set before this one: its puzzles stay candidates (the games it was mined from
# are not made again).
PREVIOUS=3175455

stage_select() {
    local previous=$DIR/previous-set.txt
    if [ ! -f "$previous" ]; then
        git show "$PREVIOUS:puzzles/puzzles.txt" > "$previous.part"
        mv "$previous.part" "$previous"
    fi
    local files=("$previous" "$DIR"/mined/*.txt "$DIR/themes-composed.txt"
        "$DIR/tables-4-blocked-jump.txt" "$DIR/tables-4-no-moves.txt")
    for f in tables-3 tables-3b tables-4 tables-4-s11 tables-4-s12; do
        [ -f "$DIR/$f.txt" ] && files+=("$DIR/$f.txt")
    done
    "$J" puzzles select "${files[@]}" --count "$COUNT" --seed 1 --games-share 0.5 \
        --out puzzles/puzzles.txt \
        --note "Regenerate: nice -n 10 scripts/make-puzzles.sh DIR (games, mining, tables, themes, this selection)"
    "$J" puzzles check puzzles/puzzles.txt
}

case "$STAGE" in
    games) stage_games ;;
    mine) stage_mine ;;
    tables) stage_tables ;;
    themes) stage_themes ;;
    select) stage_select ;;
    all) stage_games; stage_mine; stage_tables; stage_themes; stage_select ;;
    *) echo "unknown stage $STAGE" >&2; exit 2 ;;
esac
