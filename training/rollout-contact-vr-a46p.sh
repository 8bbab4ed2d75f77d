#!/bin/bash
# The second long job (2026-12-07 02:17–09:10 UTC, stopped in round adam52; docs/TRAINING.md,
# "Where gnubg's judge still prefers gnubg"): the positions of training/rollout-contact-a22c
# (contact positions of adam22c's self-play, labelled there by plain 72-game rollouts,
# 0.12-0.13 from the truth) labelled again
# by 72-game cubeless variance-reduced rollouts of adam46p (`--vr`: 0.012 from the truth,
# measured on the contact yardstick), into training/rollout-contact-vr-a46p, chunk by chunk
# under the same names: the rollout fine-tune's sets (training/adam32.sh SETS) with labels as
# good as a 2-ply's and unbiased where the 2-ply is not. About 17 minutes a chunk of 1,000
# positions per thread. Resumable (chunks written are skipped).
# Usage: training/rollout-contact-vr-a46p.sh   (CHUNKS, default 176: all; THREADS, default 1; CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
mkdir -p training/rollout-contact-vr-a46p
exec "$CLI" train label --nets training/adam46p --from training/rollout-contact-a22c \
    --rollout 72 --vr --probe 1 --threshold 0 --chunks "${CHUNKS:-176}" --seed 472 \
    --threads "${THREADS:-1}" --dir training/rollout-contact-vr-a46p
