#!/usr/bin/env bash
# Stage 2 of docs/TRAINING.md: rounds of supervised training of the nets on their own 1-ply
# chances, starting from the TD nets. Each round samples fresh self-play positions with the
# current nets, labels them at 1-ply, trains from the current nets, and reports duels against
# the nets it started from and against PubEval; the next round starts from its result.
#   training/stage2.sh [ROUNDS] [POSITIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
ROUNDS=${1:-3}
POSITIONS=${2:-400000}
start=training/td1
for round in $(seq 1 "$ROUNDS"); do
    out=training/sup$round
    mkdir -p "$out"
    echo "== round $round: sampling $POSITIONS positions with $start ($(date -u +%H:%M:%S))"
    "$CLI" train sample --nets "$start" --positions "$POSITIONS" --seed $((100 + round)) \
        --explore 0.1 --out "$out/data.bin"
    echo "== round $round: supervised training ($(date -u +%H:%M:%S))"
    "$CLI" train supervised --nets "$start" --data "$out/data.bin" --out "$out" \
        --epochs 10 --alpha 0.005 --alpha-decay 0.75 --seed "$round"
    echo "== round $round: duel against the starting nets ($(date -u +%H:%M:%S))"
    "$CLI" duel --a "cubeful:nets=$out" --b "cubeful:nets=$start" --games 10000 --seed $((200 + round))
    "$CLI" duel --a "cubeful:nets=$out" --b pubeval --games 4000 --seed 7
    start=$out
done
echo "== done ($(date -u +%H:%M:%S))"
