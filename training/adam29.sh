#!/bin/bash
# Round adam29 (docs/TRAINING.md): BASE's crashed net (default training/adam28a's, adam22c's)
# fine-tuned on crashed rollouts with the back games among them: the first CRASHED chunks
# (default 400, as adam22c: chunks 400–419 stay held out) of training/rollout-crashed-a20x, the
# first BG chunks (default: all labelled) of training/rollout-backgame-a28a and BGC (default: all
# labelled) of training/rollout-backgamecand-a28a, the back-game chunks taken REPEAT times
# (default 1); crashed examples only, 72-game cubeless rollouts all. EPOCHS (default 3) of Adam
# at α ALPHA (default 0.0003), cosine, squared error (training/fine-tune.sh), then the pruning
# crashed net unless PRUNE=0; BASE's other nets. Round adam29's trials: none better than adam28a.
# Usage: training/adam29.sh [OUT]  (default training/adam29; BASE; CRASHED; BG; BGC; REPEAT;
# EPOCHS; ALPHA; ARGS; PRUNE; THREADS; CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam29}
BASE=${BASE:-training/adam28a}
WORK=$(mktemp -d training/.adam29.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/data" "$WORK/nets"
. training/round.sh
labelled() { ls "$1" 2>/dev/null | grep -c '^chunk-.*\.bin$' || true; }
take training/rollout-crashed-a20x "${CRASHED:-400}" ro-crashed-a20x
for r in $(seq 1 "${REPEAT:-1}"); do
    take training/rollout-backgame-a28a "${BG:-$(labelled training/rollout-backgame-a28a)}" \
        "ro-backgame-$r"
    take training/rollout-backgamecand-a28a \
        "${BGC:-$(labelled training/rollout-backgamecand-a28a)}" "ro-backgamecand-$r"
done
CLI=${CLI:-training/bin/cubeful-cli} training/fine-tune.sh crashed "$BASE" "$WORK/data" \
    "$WORK/nets"
mkdir -p "$OUT"
for n in contact race prune-contact prune-race; do cp "$BASE/$n.net" "$OUT/"; done
keep_trained crashed
