#!/bin/sh
# Round adam26 (docs/TRAINING.md): race positions of adam25a's self-play (10% exploring plays;
# the race net's class, pure bearoffs included), each labelled by adam25a's cubeless 2-ply with
# the bearoff databases judging pure bearoffs at the root and the leaves (`--bearoff-leaves`):
# a teacher 0.0066 in equity from 1,296-game rollouts outside pure bearoffs, where the race
# net is 0.013 from it and from the rollouts alike, and where more positions lower the race
# net's held-out error. Seed 30; 10,000 positions a chunk, 300-450 a second on two threads.
# Resumable (chunks written are skipped). Usage: training/label2p-race-a25a.sh  (CHUNKS,
# THREADS, CLI)
set -e
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/label2p-race-a25a
exec "$CLI" train label --nets training/adam25a --source self-play --class race --plies 2 \
    --bearoff-leaves --chunks "${CHUNKS:-200}" --chunk-positions 10000 --seed 30 \
    --threads "${THREADS:-1}" --dir training/label2p-race-a25a
