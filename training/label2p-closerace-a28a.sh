#!/bin/sh
# Round adam29 (docs/TRAINING.md): a second million close races for the race net, from adam28a's
# self-play (10% exploring plays; races, not pure bearoffs, pip counts at most 12 apart) and
# labelled by adam28a's cubeless 2-ply with the bearoff databases at the leaves: round adam28's
# close races (training/label2p-closerace-a27a, adam27a's 2-ply, seed 40) took the close-race
# error from 0.0186 to 0.0131 (gnubg's 0-ply 0.0114) and it still fell with every chunk added.
# Seed 41; 10,000 positions a chunk. Resumable (chunks written are skipped).
# Usage: training/label2p-closerace-a28a.sh  (CHUNKS, THREADS, CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-closerace-a28a
exec "$CLI" train label --nets training/adam28a --source self-play --class race \
    --close-races 12 --plies 2 --bearoff-leaves --chunks "${CHUNKS:-100}" \
    --chunk-positions 10000 --seed 41 --threads "${THREADS:-1}" \
    --dir training/label2p-closerace-a28a
