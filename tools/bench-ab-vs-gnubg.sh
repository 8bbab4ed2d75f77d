#!/bin/bash
# Two Cubeful builds against gnubg on the same opening decisions, in alternating rounds, for a
# noisy shared machine where one run of tools/bench-vs-gnubg.sh cannot tell them apart
# (docs/BENCHMARKS.md, §Checker-play decisions). Each round times gnubg's PLIES-ply hint of the
# 15 non-double opening rolls twice (its run with the hints less the same run without them),
# then `bench hint --plies PLIES --passes 2` of build A and of build B (their embedded nets), and
# prints the three seconds per decision; take medians over the rounds.
# Usage: tools/bench-ab-vs-gnubg.sh CLI_A CLI_B [PLIES (2)] [ROUNDS (6)]   (GNUBG)
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,8p' "$0" >&2; exit 2; }
A=$1 B=$2 PLIES=${3:-2} ROUNDS=${4:-6}
GNUBG=${GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$(dirname "$0")/gnubg-hint-script.sh" "$PLIES" yes opening 2 > "$tmp/yes.txt"
"$(dirname "$0")/gnubg-hint-script.sh" "$PLIES" no opening 2 > "$tmp/no.txt"
ours() { "$1" bench hint --plies "$PLIES" --passes 2 --json | grep seconds_per_decision | grep -o '[0-9.]*'; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$ROUNDS"); do
    s=$(date +%s.%N)
    "$GNUBG" -t -q < "$tmp/no.txt" > /dev/null 2>&1 || true
    m=$(date +%s.%N)
    "$GNUBG" -t -q < "$tmp/yes.txt" > /dev/null 2>&1 || true
    e=$(date +%s.%N)
    g=$(echo "scale=4; (($e - $m) - ($m - $s)) / 30" | bc)
    echo "${PLIES}-ply s/decision: gnubg $g, A $(ours "$A"), B $(ours "$B")"
done
