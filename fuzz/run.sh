#!/usr/bin/env bash
# Runs fuzz targets for a while each, two at a time, niced; logs to fuzz/logs/<target>.log.
# Usage (from the repository root): fuzz/run.sh SECONDS [TARGET...]   (default: all)
# A crash stops its target and leaves the input in fuzz/artifacts/<target>/.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(command_line session fen moves setoption records openings training_data board_requests online_messages account_requests)
fi
mkdir -p fuzz/logs
cargo +nightly fuzz build || exit 1
run() {
    local t=$1
    # The targets that search start the engine's helper threads (a rayon pool), which
    # end asynchronously after the session is dropped; LeakSanitizer reports their
    # handles as leaks. They are not: 500 sessions with Threads 4 in a row leave the
    # thread count and resident memory unchanged.
    local leaks=1
    case $t in session | setoption) leaks=0 ;; esac
    mkdir -p "fuzz/corpus/$t"
    nice -n 10 cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
        -dict=fuzz/protocol.dict -max_total_time="$seconds" -timeout=60 \
        -rss_limit_mb=4096 -detect_leaks=$leaks -print_final_stats=1 >"fuzz/logs/$t.log" 2>&1
    echo "$t: exit $?, $(grep -h 'stat::number_of_executed_units' "fuzz/logs/$t.log" | awk '{print $2}') executions"
}
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    run "${targets[i]}" &
    if [ $((i + 1)) -lt ${#targets[@]} ]; then
        run "${targets[i + 1]}" &
    fi
    wait
done
