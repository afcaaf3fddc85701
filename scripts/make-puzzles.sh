#!/usr/bin/env bash
# Makes the shipped puzzle set (puzzles/puzzles.txt; docs/puzzles.md) in stages that
# can each be stopped and run again (every output is written as NAME.part and renamed
# when complete; finished ones are skipped):
#
#   nice -n 19 scripts/make-puzzles.sh DIR [mine|previous|tables|themes|rate|select|fit|all]
#
# mine:     `jungle puzzles mine` of the manifest puzzles/mining/selfplay.tsv: the games,
#           their candidates and puzzles, shard by shard, in DIR/selfplay/ (the
#           manifest's rows are added as shards finish: commit them). Each verified
#           shard's puzzles (shard-K.txt, a few KB) are also kept in git, in
#           puzzles/mining/selfplay/: copied into DIR before the run (a shard whose
#           file matches its row is not verified again) and back after it, so that
#           the core-hours of verification survive the loss of DIR.
# previous: the set before issue 63 (PREVIOUS below, from git) verified again with
#           this verifier: DIR/previous.txt without the puzzles it refuses.
# tables:   `jungle puzzles tables` of 3- and 4-animal signatures, and the themes the
#           tables can give (zugzwang, the rat in the river, a blocked jump, no move
#           left, the rat taking the elephant, the last animal hunted down):
#           DIR/tables-*.txt.
# themes:   the anti-chase puzzles of the two composed games of
#           scripts/puzzle-themes.pgn: DIR/themes-composed.txt.
# rate:     every candidate themed and rated again with this build:
#           DIR/candidates.txt.
# select:   `jungle puzzles select` of DIR/candidates.txt into puzzles/puzzles.txt,
#           then `jungle puzzles check --verify --sample 25` of it.
# fit:      DIR/curve.txt, the rating curve fitted to the selected set's hardness:
#           paste it into RATING_CURVE in crates/core/src/puzzle/difficulty.rs,
#           build, and run rate and select again (the selection hardly depends on
#           the ratings, so once is enough).
#
# JUNGLE=path uses that binary (default: target/release/jungle, built first);
# THREADS=k works on k games or signatures at once (default 1).
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
mkdir -p "$DIR"
MANIFEST=puzzles/mining/selfplay.tsv
# The most puzzles in the set (fewer when the games do not give 60% of it).
COUNT=4000
# The set before issue 63: its puzzles stay candidates once verified again.
PREVIOUS=a3db4df

# Runs "$@" --out $1.part, renamed to $1 when it succeeds (skipped when $1 exists).
part() {
    local out=$1
    shift
    [ -f "$out" ] && return 0
    "$@" --out "$out.part"
    mv "$out.part" "$out"
}

KEPT=puzzles/mining/selfplay

stage_mine() {
    mkdir -p "$DIR/selfplay" "$KEPT"
    cp -n "$KEPT"/shard-*.txt "$DIR/selfplay/" 2>/dev/null || true
    "$J" puzzles mine --manifest "$MANIFEST" --dir "$DIR" --threads "$THREADS"
    "$J" puzzles mine --manifest "$MANIFEST" --dir "$DIR" --status
    cp "$DIR"/selfplay/shard-*.txt "$KEPT/"
}

stage_previous() {
    local out=$DIR/previous.txt
    [ -f "$out" ] && return 0
    git show "$PREVIOUS:puzzles/puzzles.txt" > "$DIR/previous-set.txt"
    "$J" puzzles check "$DIR/previous-set.txt" --verify --threads "$THREADS" \
        > "$DIR/previous-check.txt" || true
    local refused
    refused=$(sed -n 's/^refused \([0-9a-z]*\):.*/\1/p' "$DIR/previous-check.txt" | paste -sd'|')
    if [ -n "$refused" ]; then
        grep -vE "^($refused);" "$DIR/previous-set.txt" > "$out.part"
    else
        cp "$DIR/previous-set.txt" "$out.part"
    fi
    mv "$out.part" "$out"
}

stage_tables() {
    local t=(--threads "$THREADS")
    [ -f "$DIR/tables-3.txt" ] || part "$DIR/tables-3.txt" "$J" puzzles tables --animals 3 \
        --signatures 224 --wins 2 --draws 1 --seed 61 "${t[@]}"
    [ -f "$DIR/tables-4.txt" ] || part "$DIR/tables-4.txt" "$J" puzzles tables --animals 4 \
        --signatures 60 --wins 2 --draws 1 --seed 62 "${t[@]}"
    # theme:animals:signatures:wins[:least solver moves[:seed]] (a seed other than 63
    # names the file too). The last animal hunted down in two moves or more: taken in
    # one, it is a trivial puzzle (at most a tenth of the set), and the set needs a
    # fifth without the den or defence themes (at most 40% each, and every puzzle
    # from games has one of them).
    for spec in zugzwang:3:40:2 zugzwang:4:20:2 river-rat:4:12:2 blocked-jump:4:7:2 \
        no-moves:4:5:1 rat-elephant:4:10:2 last-animal:3:224:2:2 last-animal:4:60:2:2 \
        last-animal:3:60:3:2:64 last-animal:3:40:3:2:65; do
        IFS=: read -r theme animals sigs wins least seed <<< "$spec"
        local out=$DIR/tables-$animals-$theme${seed:+-$seed}.txt
        [ -f "$out" ] || part "$out" "$J" puzzles tables --animals "$animals" \
            --signatures "$sigs" --wins "$wins" --draws 0 --tries 100000000 \
            --theme "$theme" --min-moves "${least:-1}" --seed "${seed:-63}" "${t[@]}"
    done
}

stage_themes() {
    [ -f "$DIR/themes-composed.txt" ] || part "$DIR/themes-composed.txt" "$J" puzzles games \
        scripts/puzzle-themes.pgn --min-animals 2 --tb-animals 0
}

stage_rate() {
    local files=("$DIR"/previous.txt "$DIR"/selfplay/shard-*.txt "$DIR"/tables-*.txt
        "$DIR"/themes-composed.txt)
    cat "${files[@]}" | grep -v '^#' | sort -u > "$DIR/candidates-all.txt"
    "$J" puzzles rate "$DIR/candidates-all.txt" --themes --threads "$THREADS" \
        --out "$DIR/candidates.txt"
}

stage_select() {
    "$J" puzzles select "$DIR/candidates.txt" --count "$COUNT" --seed 1 \
        --games-share 0.6 --theme-share 0.4 --out puzzles/puzzles.txt \
        --note "Regenerate: nice -n 19 scripts/make-puzzles.sh DIR (docs/puzzles.md, \"The shipped set\")"
    "$J" puzzles check puzzles/puzzles.txt --verify --sample 25 --threads "$THREADS"
}

stage_fit() {
    "$J" puzzles rate puzzles/puzzles.txt --fit --threads "$THREADS" > "$DIR/curve.txt.part"
    mv "$DIR/curve.txt.part" "$DIR/curve.txt"
}

case "$STAGE" in
    mine) stage_mine ;;
    previous) stage_previous ;;
    tables) stage_tables ;;
    themes) stage_themes ;;
    rate) stage_rate ;;
    select) stage_select ;;
    fit) stage_fit ;;
    all) stage_mine; stage_previous; stage_tables; stage_themes; stage_rate; stage_select ;;
    *) echo "unknown stage $STAGE" >&2; exit 2 ;;
esac
