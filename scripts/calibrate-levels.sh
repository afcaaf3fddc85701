#!/usr/bin/env bash
# Measures the engine's strength levels in games (protocol.md, "Strength levels").
#
#   nice -n 10 scripts/calibrate-levels.sh [rows|levels] [GAMES] [NODES]
#                                            (defaults: rows 200 200000)
#
# rows:   the rows of `LEVELS` in crates/core/src/search/strength.rs (selected with
#         UCI_LimitStrength and UCI_Elo), as a chain: the weakest row against the
#         one-ply greedy player (`jungle greedy`, the anchor at 1000), then each row
#         against the next weaker one; the last row is full strength. Prints each
#         match and a new Elo column (greedy = 1000) with its 95% interval, the step
#         intervals added in quadrature. Copy the column into LEVELS (it must keep
#         rising) and the table into protocol.md.
# levels: the eight levels of `jungle gui` (evenly spaced on the UCI_Elo range, the
#         last full strength), each against the one below: the steps should come out
#         near (max - min) / 7.
#
# Each engine gets `go nodes NODES`: full strength is measured at that many nodes a
# move; weakened rows stop at their depth before that. Re-run after any change of the
# evaluation or the search. JUNGLE=path measures another build (the rows still come
# from this tree); CONCURRENCY=k plays k games at once (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=rows
case "${1:-}" in rows | levels) MODE=$1; shift ;; esac
GAMES=${1:-200}
NODES=${2:-200000}
CONCURRENCY=${CONCURRENCY:-2}
if [ -z "${JUNGLE:-}" ]; then
    cargo build --release --quiet
fi
J=${JUNGLE:-$PWD/target/release/jungle}

engine() {
    case "$1" in
        greedy) echo "cmd=$J arg=greedy name=greedy" ;;
        full) echo "cmd=$J name=full option.Hash=16" ;;
        *) echo "cmd=$J name=elo$1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=$1" ;;
    esac
}

# Plays "$1" (the stronger) against "$2"; prints the summary; sets DIFF LO HI.
measure() {
    local out
    out=$("$J" match --engine "$(engine "$1")" --engine "$(engine "$2")" \
        --games "$GAMES" --nodes "$NODES" --openings openings.txt \
        --concurrency "$CONCURRENCY" | sed -n '/^Match finished/,$p' | grep -E '^(Score|Elo)')
    echo "$1 vs $2: $(echo "$out" | tr '\n' ' ')"
    read -r DIFF LO HI < <(echo "$out" | sed -nE 's/^Elo difference: ([-0-9.inf]+) \[([-0-9.inf]+), ([-0-9.inf]+)\].*/\1 \2 \3/p')
    case "$DIFF $LO $HI" in
        *inf*) echo "error: $1 vs $2 has no finite Elo (all wins?): add a row between them" >&2; exit 1 ;;
    esac
}

if [ "$MODE" = levels ]; then
    read -r MIN MAX < <(printf 'uci\nquit\n' | "$J" | sed -nE 's/^option name UCI_Elo type spin .* min ([0-9]+) max ([0-9]+)$/\1 \2/p')
    LEVELS=()
    for k in 1 2 3 4 5 6 7; do LEVELS+=($((MIN + (MAX - MIN) * (k - 1) / 7))); done
    LEVELS+=(full)
    printf 'level | UCI_Elo | step to the level below (expected %d) [95%%]\n' $(((MAX - MIN) / 7))
    for k in 1 2 3 4 5 6 7; do
        measure "${LEVELS[$k]}" "${LEVELS[$((k - 1))]}"
        printf '%d | %s | %+.0f [%+.0f, %+.0f]\n' $((k + 1)) "${LEVELS[$k]}" "$DIFF" "$LO" "$HI"
    done
    exit 0
fi

mapfile -t ELOS < <(grep -oE '^ *elo: [0-9]+' crates/core/src/search/strength.rs | awk '{print $2}')
TOP=${ELOS[${#ELOS[@]}-1]}
elo=1000
var=0
previous=greedy
printf 'row elo (old) | measured step [95%%] | new elo ± 95%%\n'
for row in "${ELOS[@]}"; do
    name=$row
    [ "$row" = "$TOP" ] && name=full
    measure "$name" "$previous"
    elo=$(awk -v e="$elo" -v d="$DIFF" 'BEGIN { printf "%.0f", e + d }')
    var=$(awk -v v="$var" -v l="$LO" -v h="$HI" 'BEGIN { w = (h - l) / 2; print v + w * w }')
    half=$(awk -v v="$var" 'BEGIN { printf "%.0f", sqrt(v) }')
    printf '%s | %+.0f [%+.0f, %+.0f] | %s ± %s\n' "$row" "$DIFF" "$LO" "$HI" "$elo" "$half"
    previous=$name
done
