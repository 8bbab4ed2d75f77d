#!/usr/bin/env bash
# Cubeful against GNU Backgammon through gnubg's external-player protocol, money play
# (Jacoby, beavers), gnubg analysing: luck-adjusted points per game and both sides' error
# rates, for docs/BENCHMARKS.md (issue 14).
#
#   tools/vs-gnubg-external.sh OUT_DIR GAMES [cubeful-cli options...]
#   e.g. nice -n 10 tools/vs-gnubg-external.sh training/external/adam5 600 --nets training/adam5 --level expert
#
# The session is played in chunks of CHUNK games (default 50); each chunk is its own gnubg
# session (seed = chunk number + SEED, default 1000), analysed at EXT_ANALYSIS_PLIES (default
# 2) with EXT_THREADS threads (default 2), and written to OUT_DIR/chunk-NNN.json. Chunks
# already there are skipped, so an interrupted run resumes where it stopped. At the end (and
# with GAMES = 0, for the chunks there are) it prints the summary and writes OUT_DIR/summary.json.
# gnubg plays at EXT_PLIES (default 0). Needs Debian's gnubg and a release cubeful-cli (CLI=...).
# EXT_MATCH=N plays N-point matches instead (Crawford rule): GAMES and CHUNK then count
# matches, each analysed on its own, and the summary is tools/external-match-summary.py's
# (training/matches-vs-gnubg.sh).
# Two runs may share OUT_DIR, one core each: a chunk being played is locked (flock on
# OUT_DIR/chunk-NNN.lock, let go when its player ends, killed or not), the other run skips it,
# and ORDER=down makes a run take the chunks from the last one down, so the two meet once.
# Never edit this script or training/external0.sh while a run is going: bash reads a script
# as it goes, and a running one executed the shifted tail of an edited copy once (chunks of
# another kind, removed by hand; docs/TRAINING.md round adam53).
set -euo pipefail
OUT=$1
GAMES=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
CLI=${CLI:-target/release/cubeful-cli}
GNUBG=${GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}
CHUNK=${CHUNK:-50}
SEED=${SEED:-1000}
mkdir -p "$OUT"
chunks=$(((GAMES + CHUNK - 1) / CHUNK))
order=$(seq 0 $((chunks - 1)))
[ "${ORDER:-up}" = down ] && order=$(seq $((chunks - 1)) -1 0)
for i in $order; do
    json=$(printf '%s/chunk-%03d.json' "$OUT" "$i")
    [ -e "$json" ] && continue
    lockfile=$(printf '%s/chunk-%03d.lock' "$OUT" "$i")
    exec {lock}> "$lockfile"
    # Skipped if the other run plays it, or has finished it since this one looked.
    if ! flock -n "$lock" || [ -e "$json" ]; then
        exec {lock}>&-
        continue
    fi
    log=$(mktemp)
    "$CLI" external 0 --connections 1 --idle-timeout 600 "$@" > "$log" 2>&1 &
    server=$!
    port=""
    for _ in $(seq 100); do
        port=$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2 || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { cat "$log"; kill $server; exit 1; }
    n=$CHUNK
    [ $((i * CHUNK + n)) -gt "$GAMES" ] && n=$((GAMES - i * CHUNK))
    start=$(date +%s)
    EXT_PORT=$port EXT_GAMES=$n EXT_SEED=$((SEED + i)) EXT_OUT=$json \
        EXT_SGF=$(printf '%s/chunk-%03d.sgf' "$OUT" "$i") \
        "$GNUBG" -t -q -r -p "$HERE/gnubg-external-chunk.py" > "$OUT/gnubg-$i.log" 2>&1 || true
    wait $server || true
    rm -f "$log"
    # Once the chunk is there, any run that opens its lock file skips it: the file can go.
    [ -e "$json" ] && rm -f "$lockfile"
    exec {lock}>&-
    [ -e "$json" ] || { echo "chunk $i failed: see $OUT/gnubg-$i.log"; tail -20 "$OUT/gnubg-$i.log"; exit 1; }
    mv "$OUT/gnubg-$i.log" "$OUT/gnubg.log"
    echo "chunk $i: $n games in $(($(date +%s) - start)) s"
done
python3 "$HERE/external-summary.py" "$OUT"
