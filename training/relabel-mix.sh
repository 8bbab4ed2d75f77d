#!/bin/sh
# A relabelled-sets folder for training/adam20.sh's RELABEL that takes each chunk from PRIMARY
# where PRIMARY has it and from FALLBACK elsewhere (hard links, made again on every run: the data
# reader skips symbolic links): a round can train on the long job's 2-ply labels done so far
# (training/relabel2-a37a.sh) and a nearer 1-ply relabel for the rest. A set that only PRIMARY
# has is taken from it whole. Every set must be complete in one of the two (adam20.sh checks).
# Usage: training/relabel-mix.sh PRIMARY FALLBACK OUT
#   e.g. training/relabel-mix.sh training/relabel2-a37a training/relabel1-a36a training/relabel-mix
set -eu
[ $# -eq 3 ] || { sed -n '2,8p' "$0" >&2; exit 2; }
PRIMARY=$(realpath "$1")
FALLBACK=$(realpath "$2")
OUT=$3
rm -rf "$OUT"
primary=0 fallback=0
for dir in "$FALLBACK"/*/; do
    set=$(basename "$dir")
    mkdir -p "$OUT/$set"
    for chunk in "$dir"chunk-*.bin; do
        name=$(basename "$chunk")
        if [ -f "$PRIMARY/$set/$name" ]; then
            ln "$PRIMARY/$set/$name" "$OUT/$set/$name"
            primary=$((primary + 1))
        else
            ln "$chunk" "$OUT/$set/$name"
            fallback=$((fallback + 1))
        fi
    done
done
for dir in "$PRIMARY"/*/; do
    set=$(basename "$dir")
    [ -d "$FALLBACK/$set" ] && continue
    mkdir -p "$OUT/$set"
    for chunk in "$dir"chunk-*.bin; do
        ln "$chunk" "$OUT/$set/$(basename "$chunk")"
        primary=$((primary + 1))
    done
done
echo "relabel-mix: $primary chunks from $1, $fallback from $2"
