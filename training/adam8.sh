#!/bin/bash
cd /work/main
D=(--data-dir training/label2p --data-dir training/label2p-r2 --data-dir training/label2p-r3)
for i in 1 2 3 4 5; do D+=(--data-dir training/rollout-r1); done
for i in 1 2 3; do D+=(--data-dir training/rollout-races-r1); done
for i in 1 2 3 4 5 6; do D+=(--data-dir training/rollout-holding-r1 --data-dir training/rollout-holding-r2); done
for i in 1 2 3; do D+=(--data-dir training/rollout-selfplay-u1); done
training/bin/cubeful-cli train supervised --optimizer adam --loss ce --nets training/adam5 "${D[@]}" \
    --out training/adam8 --epochs 8 --batch 64 --alpha 0.0007 --schedule cosine --select loss \
    --seed 1 --threads 1
training/bin/cubeful-cli train prune --nets training/adam8 --data-dir training/label2p --out training/adam8 --threads 1
