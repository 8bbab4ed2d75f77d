#!/bin/bash
# A relabelled-sets folder for training/adam20.sh's RELABEL that takes each chunk from the first
# of the SOURCE folders that has it (hard links, made again on every run: the data reader skips
# symbolic links): a round can train on the long job's 2-ply labels done so far
# (training/relabel2-a37a.sh), other 2-ply relabels (the crashed sets', training/relabel2c-a39c)
# and a nearer 1-ply relabel, last, for the rest. A set only some of them have is taken from
# those. Every set must be complete in the mix (adam20.sh checks).
# Usage: training/relabel-mix.sh SOURCE... OUT   (at least two SOURCEs, the best labels first)
#   e.g. training/relabel-mix.sh training/relabel2-a37a training/relabel2c-a39c
#          training/relabel1-a37a training/relabel-mix
set -eu
[ $# -ge 3 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
OUT=${!#}
SOURCES=("${@:1:$#-1}")
for source in "${SOURCES[@]}"; do
    [ -d "$source" ] || { echo "relabel-mix: $source is not a folder" >&2; exit 2; }
done
rm -rf "$OUT"
mkdir -p "$OUT"
summary=""
for source in "${SOURCES[@]}"; do
    root=$(realpath "$source")
    taken=0
    for dir in "$root"/*/; do
        [ -d "$dir" ] || continue
        set=$(basename "$dir")
        mkdir -p "$OUT/$set"
        for chunk in "$dir"chunk-*.bin; do
            [ -f "$chunk" ] || continue
            name=$(basename "$chunk")
            [ -e "$OUT/$set/$name" ] && continue
            ln "$chunk" "$OUT/$set/$name"
            taken=$((taken + 1))
        done
    done
    summary="$summary${summary:+, }$taken from $source"
done
echo "relabel-mix: $summary"
