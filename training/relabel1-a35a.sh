#!/bin/sh
# Round adam35 (docs/TRAINING.md): the contact sets labelled again by adam35a's pruned 1-ply, into
# training/relabel1-a35a (training/relabel-contact.sh says why and how).
# Usage: training/relabel1-a35a.sh   (THREADS; CLI)
exec "$(dirname "$0")/relabel-contact.sh" adam35a
