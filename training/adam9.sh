#!/bin/bash
# Round adam9 (docs/TRAINING.md): adam8's recipe with the 2-ply labels of label2p replaced by
# adam6's (chunks not yet relabelled keep sup3's), plus crashed and candidate positions labelled
# by adam6's pruned 2-ply. Usage: training/adam9.sh OUT [START] [EPOCHS] [ALPHA]
set -e
cd "$(dirname "$0")/.."
OUT=$1 START=${2:-training/adam5} EPOCHS=${3:-8} ALPHA=${4:-0.0007}
CLI=${CLI:-training/bin/cubeful-cli}
# label2p with adam6's labels where they exist (hard links: the data reader skips symlinks).
MERGED=$(mktemp -d training/.label2p-merged.XXXXXX)
trap 'rm -rf "$MERGED"' EXIT
for f in training/label2p/chunk-*.bin; do
    n=$(basename "$f")
    if [ -f "training/label2p-a6/$n" ]; then ln "training/label2p-a6/$n" "$MERGED/$n"; else ln "$f" "$MERGED/$n"; fi
done
echo "adam9: $(ls training/label2p-a6 | wc -l) of 100 label2p chunks relabelled"
D=(--data-dir "$MERGED" --data-dir training/label2p-r2 --data-dir training/label2p-r3)
D+=(--data-dir training/label2p-crashed-a6 --data-dir training/label2p-candidates-a6)
for i in 1 2 3 4 5; do D+=(--data-dir training/rollout-r1); done
for i in 1 2 3; do D+=(--data-dir training/rollout-races-r1); done
for i in 1 2 3 4 5 6; do D+=(--data-dir training/rollout-holding-r1 --data-dir training/rollout-holding-r2); done
for i in 1 2 3; do D+=(--data-dir training/rollout-selfplay-u1); done
mkdir -p "$OUT"
"$CLI" train supervised --optimizer adam --loss ce --nets "$START" "${D[@]}" \
    --out "$OUT" --epochs "$EPOCHS" --batch 64 --alpha "$ALPHA" --schedule cosine --select loss \
    --seed 1 --threads 1
"$CLI" train prune --nets "$OUT" --data-dir training/label2p --out "$OUT" --threads 1
