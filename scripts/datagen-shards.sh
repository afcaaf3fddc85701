#!/usr/bin/env bash
# Resumable, sharded self-play data for the network: plays the shards FIRST..LAST of an
# N-shard `jungle datagen` run into DIR/shard-K.bin, skipping shards already complete.
# A shard is written to DIR/shard-K.part and renamed when done, so a run that is stopped
# (or a machine that is lost) costs at most the shard in progress; run it again to go on.
#
#   scripts/datagen-shards.sh BINARY DIR SEED GAMES N FIRST LAST [extra datagen flags]
#   nice -n 19 scripts/datagen-shards.sh target/release/jungle data/g4 4 400000 80 1 80
#
# This made the fourth network's data (CHANGES.md) and stays to remake it. New data is
# made by `jungle data run` from a manifest in data/manifests/, which records each
# shard's checksum (docs/training.md, "Training data").
set -euo pipefail
if [ $# -lt 7 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
bin=$1 dir=$2 seed=$3 games=$4 shards=$5 first=$6 last=$7
shift 7
mkdir -p "$dir"
for ((k = first; k <= last; k++)); do
    out="$dir/shard-$k.bin"
    [ -f "$out" ] && continue
    "$bin" datagen --output "$dir/shard-$k.part" --games "$games" --nodes 5000 --threads 2 \
        --seed "$seed" --shard "$k/$shards" --quiet "$@"
    mv "$dir/shard-$k.part" "$out"
    echo "$(date -u +%FT%TZ) shard $k/$shards done: $(stat -c %s "$out") bytes" >&2
done
