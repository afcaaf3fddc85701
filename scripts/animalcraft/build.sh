#!/bin/sh
# Builds the engine of AnimalcraftAI (github.com/WZ403809264/AnimalcraftAI, V1.7, the
# `engine` branch: Engine.cpp, ucci.h, pipe.h, bool.h, idle.h) for Linux with g++, as
# DIR/animalcraft-engine. Its source is cloned into DIR/src at a pinned commit and
# patched with linux.patch (next to this script); none of it enters this repository.
#
#   scripts/animalcraft/build.sh DIR
#
# ANIMALCRAFT_GIT overrides where the source is cloned from (a local mirror), CXX the
# compiler. ANIMALCRAFT_HASH_BITS (default 25, the engine's own: 2^25 entries, 768 MB)
# sizes its hash table, which it clears at every go (0.1-0.4 s at 25): 20 (24 MB) suits
# games of less than a second a move. Run it under `nice` on a shared machine. Not
# part of CI.
set -eu

COMMIT=c0676ead18007d5a32ecdaf5587a18a2f314d595 # branch `engine`, "Add files via upload", 2023-10-25
GIT=${ANIMALCRAFT_GIT:-https://github.com/WZ403809264/AnimalcraftAI}
HASH_BITS=${ANIMALCRAFT_HASH_BITS:-25}
case $HASH_BITS in
1[0-9] | 2[0-7]) ;;
*) echo "ANIMALCRAFT_HASH_BITS takes 10 to 27, got '$HASH_BITS'" >&2; exit 2 ;;
esac

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
DIR=$(cd "$1" && pwd)
SRC=$DIR/src

if [ ! -d "$SRC/.git" ]; then
    git clone --quiet "$GIT" "$SRC"
fi
if ! git -C "$SRC" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    git -C "$SRC" fetch --quiet origin
fi
git -C "$SRC" checkout --quiet --force --detach "$COMMIT"
git -C "$SRC" clean --quiet -fdx

cd "$SRC"
# The sources have CRLF line ends and Engine.cpp's comments are GBK: make them LF and
# UTF-8 first, so that the patch is plain text.
for f in Engine.cpp ucci.h pipe.h bool.h idle.h; do
    sed -i 's/\r$//' "$f"
done
iconv -f GBK -t UTF-8 Engine.cpp >Engine.cpp.utf8
mv Engine.cpp.utf8 Engine.cpp
git apply "$HERE/linux.patch"

${CXX:-g++} -O2 -w -DHASH_BITS="$HASH_BITS" -o "$DIR/animalcraft-engine" Engine.cpp
echo "built $DIR/animalcraft-engine (AnimalcraftAI V1.7, commit $COMMIT, hash 2^$HASH_BITS entries)"
