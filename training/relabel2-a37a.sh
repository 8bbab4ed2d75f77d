#!/bin/sh
# The long job since round adam37 (docs/TRAINING.md): the contact sets labelled again by adam37a's
# pruned 2-ply, into training/relabel2-a37a (training/relabel-contact.sh says why and how). About
# 200 positions a second per thread, so the 5.8 million positions take nine hours or so on one
# thread; resumable (chunks written are skipped), and the chunks are committed as they come, so
# that a round can train on the 2-ply labels done so far and the 1-ply ones elsewhere
# (training/relabel-mix.sh).
# Usage: training/relabel2-a37a.sh   (THREADS, default 1; CLI)
PLIES=2 exec "$(dirname "$0")/relabel-contact.sh" adam37a
