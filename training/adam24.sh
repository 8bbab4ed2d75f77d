#!/bin/bash
# Round adam24 (docs/TRAINING.md): the race net of BASE (default training/adam23a) fine-tuned on
# race rollouts alone, as rounds adam22 and adam23 fine-tuned the crashed and contact nets: the
# first CHUNKS chunks (default 100, of 2,000 positions) of training/rollout-race-a22c (race
# positions of adam22c's self-play, 72-game cubeless rollouts) and the stacked races of
# training/rollout-races-r1 (STACKED=0 leaves them out), race examples only. EPOCHS
# (default 3) of Adam, α ALPHA (default 0.0003) with a cosine schedule, squared error; then a
# pruning race net distilled from it (train prune; PRUNE=0 keeps BASE's), with BASE's other nets.
# EXTRA adds the first N chunks of more folders of race rollouts ("DIR:N DIR:N"; round adam25:
# the gammonish races of training/rollout-gammonish-a24a and the race candidates of
# training/rollout-racecand-a24a).
# Usage: training/adam24.sh [OUT]   (default training/adam24; BASE; CHUNKS; EXTRA; EPOCHS; ALPHA;
# THREADS; CLI)
set -e
cd "$(dirname "$0")/.."
OUT=${1:-training/adam24}
BASE=${BASE:-training/adam23a}
CLI=${CLI:-training/bin/cubeful-cli}
CHUNKS=${CHUNKS:-100}
WORK=$(mktemp -d training/.adam24.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir "$WORK/rollouts" "$WORK/nets"
for i in $(seq 0 $((CHUNKS - 1))); do
    f=training/rollout-race-a22c/$(printf 'chunk-%05d.bin' "$i")
    [ -f "$f" ] || { echo "adam24: $f is not labelled yet"; exit 1; }
    ln "$f" "$WORK/rollouts/"
done
for extra in ${EXTRA:-}; do
    dir=${extra%:*} n=${extra##*:}
    for i in $(seq 0 $((n - 1))); do
        f=$dir/$(printf 'chunk-%05d.bin' "$i")
        [ -f "$f" ] || { echo "adam24: $f is not labelled yet"; exit 1; }
        ln "$f" "$WORK/rollouts/$(basename "$dir")-$(basename "$f")"
    done
done
# The made-up stacked races of stage 4's rollout set (rollout-races-r1), unless STACKED=0:
# without them the fine-tune drifts on those (equity RMSE 0.048 to 0.053, 50 chunks).
if [ "${STACKED:-1}" = 1 ]; then
    for f in training/rollout-races-r1/*.bin; do ln "$f" "$WORK/rollouts/races-r1-$(basename "$f")"; done
fi
CLI=$CLI training/fine-tune.sh race "$BASE" "$WORK/rollouts" "$WORK/nets"
[ "${PRUNE:-1}" = 1 ] || cp "$BASE/prune-race.net" "$WORK/nets/"
mkdir -p "$OUT"
for n in contact crashed prune-contact prune-crashed; do cp "$BASE/$n.net" "$OUT/"; done
cp "$WORK/nets/race.net" "$WORK/nets/prune-race.net" "$OUT/"
