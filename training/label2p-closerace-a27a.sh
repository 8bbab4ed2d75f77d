#!/bin/sh
# Round adam28 (docs/TRAINING.md, round adam27's "What is left"): close races of adam27a's
# self-play (10% exploring plays; races, not pure bearoffs, whose pip counts are at most 12
# apart: `--close-races 12`), each labelled by adam27a's cubeless 2-ply with the bearoff
# databases at the leaves. Why: within eight pips the race net is 0.0190 from the 1,296-game
# rollouts where gnubg's 0-ply is 0.0097 and this teacher 0.0077, and the race net does not fit
# even its training targets there (0.0146), which plain self-play holds few of (7% of its
# races). Seed 40; 10,000 positions a chunk. Resumable (chunks written are skipped).
# Usage: training/label2p-closerace-a27a.sh  (CHUNKS, THREADS, CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-closerace-a27a
exec "$CLI" train label --nets training/adam27a --source self-play --class race \
    --close-races 12 --plies 2 --bearoff-leaves --chunks "${CHUNKS:-100}" \
    --chunk-positions 10000 --seed 40 --threads "${THREADS:-1}" \
    --dir training/label2p-closerace-a27a
