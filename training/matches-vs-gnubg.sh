#!/usr/bin/env bash
# World Class in matches against GNU Backgammon's 2-ply through the external-player protocol
# (tools/vs-gnubg-external.sh with EXT_MATCH): 7-point matches (LENGTH), Crawford rule, in
# chunks of 10 matches, seeds 20000 + the chunk's number, each match analysed by gnubg at 0
# plies (its luck-adjusted result stays unbiased; tools/external-summary.py says why), into
# training/external-${LENGTH}pt-2ply/NETS. Resumable, and a second run with ORDER=down plays
# the same run's chunks from the last one down, on the other core.
#
#   MATCHES=1000 training/matches-vs-gnubg.sh adam46p
#
# Never edit this script while a run is going (bash reads a script as it goes); replace it by
# renaming a new copy over it instead.
set -euo pipefail
cd "$(dirname "$0")/.."
NETS=${1:-adam46p}
LENGTH=${LENGTH:-7}
MATCHES=${MATCHES:-1000}
EXT_MATCH=$LENGTH EXT_PLIES=2 EXT_ANALYSIS_PLIES=0 CHUNK=10 SEED=20000 \
    CLI=${CLI:-training/bin/cubeful-cli} \
    tools/vs-gnubg-external.sh "training/external-${LENGTH}pt-2ply/$NETS" "$MATCHES" \
    --nets "training/$NETS" --level worldclass > /dev/null
