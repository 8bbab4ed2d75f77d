#!/bin/sh
# The long job since 2026-12-05 (docs/TRAINING.md): the contact sets labelled again by adam41w's
# pruned 2-ply (the nets in data/nets since round adam41), into training/relabel2-a41w, the next
# teacher after adam37a (training/relabel2-a37a.sh): on the contact yardstick adam41w's 2-ply is
# 0.0148 from the rollouts, adam37a's 0.0161. About 200 positions a second per thread, so the 5.8
# million positions take nine hours or so on one thread; resumable (chunks written are skipped),
# and the chunks are committed as they come (training/relabel-mix.sh mixes a part done with
# training/relabel2-a37a for the rest).
# Usage: training/relabel2-a41w.sh   (THREADS, default 1; CLI)
PLIES=2 exec "$(dirname "$0")/relabel-contact.sh" adam41w
