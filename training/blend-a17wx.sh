#!/bin/bash
# Round adam18 (docs/TRAINING.md): the 2-ply sets of adam9.sh with every target mixed half and
# half with adam17wx's pruned 1-ply chances (train label --from SET --plies 1 --blend 0.5).
# Why: our nets judge the player on roll about 0.01 low against rollouts, so their even-ply
# targets are low and odd-ply ones high by as much; the mix is unbiased against the rollouts
# (rollout-selfplay-u1: 2-ply -0.009, 1-ply +0.011, the mix +0.001). Deterministic and
# resumable: chunks already written are skipped. Writes training/blend-a17wx/SET.
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
OUT=training/blend-a17wx
mkdir -p "$OUT"
# label2p, -r2 and -r3 as adam9.sh reads them: adam6's relabels where they exist.
MERGED=$(mktemp -d training/.blend.XXXXXX)
trap 'rm -rf "$MERGED"' EXIT
for set in label2p label2p-r2 label2p-r3; do
    mkdir "$MERGED/$set"
    for f in training/$set/chunk-*.bin; do
        n=$(basename "$f")
        if [ -f "training/$set-a6/$n" ]; then ln "training/$set-a6/$n" "$MERGED/$set/$n"; else ln "$f" "$MERGED/$set/$n"; fi
    done
done
SETS="$MERGED/label2p-r2 $MERGED/label2p-r3 $MERGED/label2p training/label2p-contactcand-a12x
    training/label2p-contactcand-a11k training/label2p-candidates-a10 training/label2p-candidates-a6
    training/label2p-early-a13x training/label2p-crashed-a6 training/label2p-crashed-a10
    training/label2p-crashcand-a11c training/label2p-crashcand-a12x training/label2p-racecand-a10r"
for set in $SETS; do
    name=$(basename "$set")
    mkdir -p "$OUT/$name"
    "$CLI" train label --nets training/adam17wx --from "$set" --dir "$OUT/$name" --plies 1 \
        --prune --blend 0.5 --chunks 100000 --threads "${THREADS:-1}"
done
