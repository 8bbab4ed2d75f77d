#!/usr/bin/env bash
# The two seeds of training/judge-a46p-report.sh (SEEDS=1, SEEDS=2) joined into the 2,000 decisions of --seed 1,2
# (seed 2 numbered from 1000), in training/bench/judge-a46p-seed1-2/, for tools/paired-errors.py
# (the per-decision errors) and tools/judge-recheck.py --choices (gnubg's plays).
set -euo pipefail
cd "$(dirname "$0")/bench"
mkdir -p judge-a46p-seed1-2
for f in judge-a46p-seed2/*.tsv; do
  n=$(basename $f)
  { cat judge-a46p-seed1/$n; grep -v '^#' judge-a46p-seed2/$n | awk -F'\t' 'BEGIN{OFS="\t"} {$1=$1+1000; print}'; } > judge-a46p-seed1-2/$n
done
for f in judge-a46p-seed2/gnubg-*ply-choices.txt; do
  n=$(basename $f)
  { cat judge-a46p-seed1/$n; awk -F'\t' 'BEGIN{OFS="\t"} {$1=$1+1000; print}' judge-a46p-seed2/$n; } > judge-a46p-seed1-2/$n
done
