#!/bin/sh
# Round adam38 (docs/TRAINING.md): round adam22's crashed fine-tune (training/adam22c.sh: 3 epochs
# on 400,000 crashed rollouts, then its own pruning crashed net) given to adam38cd's crashed net
# (adam37a's, adam22c's, trained again on the crashed sets labelled by adam37a's pruned 1-ply;
# docs/TRAINING.md has the commands), with adam37a's contact and race nets.
# Usage: training/adam38c.sh [OUT]   (default training/adam38c; THREADS; CLI)
BASE=training/adam38cd NETS=training/adam37a exec "$(dirname "$0")/adam22c.sh" "${1:-training/adam38c}"
