#!/bin/sh
# Round adam21 (docs/TRAINING.md): every 2-ply set of training/adam9.sh labelled again by
# adam20x's pruned 2-ply, into training/relabel-a20x/SET. Why: on the rollout-labelled
# self-play positions (rollout-selfplay-u1, 16,800) adam20x's 2-ply is 0.0642 of equity from the
# rollouts (RMSE) where adam18bx's (the targets of round adam20) is 0.0666; adam20x's 3-ply,
# at a twentieth of the speed, is 0.0626.
exec "$(dirname "$0")/relabel.sh" training/adam20x training/relabel-a20x
