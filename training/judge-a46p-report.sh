#!/usr/bin/env bash
# After training/judge-a46p.sh: the decision benchmark's 2,000 decisions judged by adam46p's
# 144-game variance-reduced rollouts, asked of every player the old judge (adam6's rollouts)
# measured (docs/BENCHMARKS.md, "The same choices, judged by rollouts"): the embedded nets at
# 0 to 3 plies, with Supremo's filter and reduced, older nets at 0 and 2 plies, and GNU Backgammon's
# cubeless choices at 0, 2 and 3 plies. Per-decision errors go to OUT (default
# training/bench/judge-a46p-seed1-2) as NAME.tsv; tools/paired-errors.py pairs them at the end. A choice
# the judge did not roll out is rolled out when asked (with the judge's nets and seeds), so the
# weaker players take longer. Skips what OUT already holds: rerun to resume.
#
#   training/judge-a46p-report.sh | tee training/bench/judge-a46p-seed1-2.txt
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
THREADS=${THREADS:-2}
# SEEDS=1 asks seed 1's 1,000 decisions alone (while seed 2's are still being judged)
SEEDS=${SEEDS:-1,2}
OUT=${OUT:-training/bench/judge-a46p-seed${SEEDS/,/-}}
GNUBG=${GNUBG:-/usr/games/gnubg}
mkdir -p "$OUT"
bench() {
    "$CLI" bench decisions --positions 1000 --seed "$SEEDS" --reference-rollout 144 \
        --reference-nets training/adam46p --threads "$THREADS" "$@"
}
# name, then bench's options
measure() {
    local name=$1
    shift
    [ -s "$OUT/$name.tsv" ] && return
    echo "== $name: $*"
    bench --bearoff "$@" --errors "$OUT/$name.tsv"
}
if [ ! -s "$OUT/decisions.txt" ]; then
    bench --list > "$OUT/decisions.tmp"
    mv "$OUT/decisions.tmp" "$OUT/decisions.txt"
fi
for plies in 0 2 3; do
    if [ ! -s "$OUT/gnubg-${plies}ply-choices.txt" ]; then
        DECISIONS="$OUT/decisions.txt" CHOICES="$OUT/gnubg-${plies}ply-choices.txt" PLIES=$plies \
            "$GNUBG" -t -q -r -p tools/gnubg-decision-choices.py
    fi
    measure "gnubg-${plies}ply" --choices "$OUT/gnubg-${plies}ply-choices.txt"
done
for plies in 0 1 2 3; do
    measure "adam46p-${plies}ply" --nets training/adam46p --plies "$plies"
done
measure adam46p-2ply-large --nets training/adam46p --plies 2 --filter large
measure adam46p-2ply-reduced --nets training/adam46p --plies 2 --reduced
measure adam46p-3ply-reduced --nets training/adam46p --plies 3 --reduced
for nets in adam41w adam18bx adam13x adam6; do
    for plies in 0 2; do
        measure "$nets-${plies}ply" --nets "training/$nets" --plies "$plies"
    done
done
echo "== paired against World Class (adam46p, 2 plies); positive: the other chooses better"
python3 tools/paired-errors.py "$OUT/adam46p-2ply.tsv" "$OUT"/adam46p-[013]ply.tsv \
    "$OUT"/adam46p-*ply-{large,reduced}.tsv "$OUT"/gnubg-[23]ply.tsv "$OUT"/adam*-2ply.tsv
echo "== paired against adam46p's 0-ply"
python3 tools/paired-errors.py "$OUT/adam46p-0ply.tsv" "$OUT/gnubg-0ply.tsv" "$OUT"/adam*-0ply.tsv
