#!/bin/sh
# Label the 2.5 million stage-3 positions again with adam6's pruned 2-ply (docs/TRAINING.md,
# round adam9). Resumable: chunks already written are skipped.
set -e
cd "$(dirname "$0")/.."
for set in label2p label2p-r2 label2p-r3; do
    mkdir -p "training/$set-a6"
    training/bin/cubeful-cli train label --nets training/adam6 --from "training/$set" \
        --dir "training/$set-a6" --chunks 1000 --plies 2 --prune --threads "${THREADS:-2}"
done
