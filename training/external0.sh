#!/usr/bin/env bash
# Long runs against GNU Backgammon's 0-ply through the external-player protocol, analysed at
# 0 plies (tools/external-summary.py says why the luck-adjusted result stays honest): 10,000
# money games each, seeds 10000–10099 (100-game chunks), Cubeful at Expert (0-ply). Runs are
# resumable (finished chunks are skipped). Each run's nets: a directory of training/, or a mix
# (NAME=BASE+CLASS:FROM... takes BASE's nets and CLASS's net and pruning net from FROM),
# assembled in training/external0/nets/ (gitignored). The runs of round adam30
# (docs/TRAINING.md):
#
#   training/external0.sh adam29r256 adam29r256+crashed:adam20x adam29r256+contact:adam20x
#
# PLIES=2 plays World Class (2-ply) against gnubg's 2-ply instead, into training/external0-2ply/
# (round adam31: GAMES=2000 PLIES=2 training/external0.sh adam30r). SUFFIX is appended to each
# run's name, for a run of the same nets with another build (CLI): the World Class cube of
# 2026-12-05 is `SUFFIX=-x76 PLIES=2 GAMES=2000 training/external0.sh adam41w`. A second run of
# the same command with ORDER=down plays the same run's chunks from the last one down, on the
# other core (tools/vs-gnubg-external.sh locks the chunk each is playing).
set -euo pipefail
cd "$(dirname "$0")/.."
CLI=${CLI:-training/bin/cubeful-cli}
GAMES=${GAMES:-10000}
PLIES=${PLIES:-0}
case $PLIES in
    0) level=expert root=training/external0 ;;
    2) level=worldclass root=training/external0-2ply ;;
    *) echo "PLIES must be 0 or 2" >&2; exit 1 ;;
esac
run_name() {
    local name=${1//+/-}
    echo "${name//:/-}"
}
first=$(run_name "$1")${SUFFIX:-}
for spec in "$@"; do
    name=$(run_name "$spec")${SUFFIX:-}
    base=${spec%%+*}
    nets=training/$base
    if [ "$spec" != "$base" ]; then
        nets=training/external0/nets/$name
        mkdir -p "$nets"
        cp training/"$base"/*.net "$nets"/
        IFS=+ read -ra parts <<< "${spec#*+}"
        for part in "${parts[@]}"; do
            class=${part%%:*}
            from=${part#*:}
            cp training/"$from"/"$class".net training/"$from"/prune-"$class".net "$nets"/
        done
    fi
    echo "$(date -u +%H:%M) $name: $nets"
    EXT_PLIES=$PLIES EXT_ANALYSIS_PLIES=0 CHUNK=100 SEED=10000 CLI=$CLI \
        tools/vs-gnubg-external.sh "$root/$name" "$GAMES" --nets "$nets" --level $level \
        > /dev/null
    python3 tools/external-compare.py "$root/$first" "$root/$name" | tail -1
done
