#!/bin/sh
# Round adam20 (docs/TRAINING.md): every 2-ply set of training/adam9.sh labelled again by
# adam18bx's pruned 2-ply, into training/relabel-a18bx/SET. Why: 2.5 million of the contact
# targets were still the 2-ply of adam6, adam2 and adam4, and on the rollout-labelled self-play
# positions (rollout-selfplay-u1, 16,800) adam18bx's 2-ply is 0.0666 of equity from the rollouts
# (RMSE, mean -0.001) where the targets trained on before (the old 2-ply mixed half and half with
# adam17wx's 1-ply) are 0.0719.
exec "$(dirname "$0")/relabel.sh" training/adam18bx training/relabel-a18bx
