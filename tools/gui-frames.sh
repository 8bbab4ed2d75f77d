#!/usr/bin/env bash
# Frame times of the desktop app while it analyses a match in the background and the user
# browses (docs/BENCHMARKS.md §GUI responsiveness during analysis). On a private Xvfb display
# with GTK's cairo renderer: opens a 7-point match of the shared corpus in a 1200 × 800 window,
# selects its first action, starts the analysis of the match (Ctrl+Shift+A, 2-ply), presses
# Page Down BROWSE times 0.3 s apart, waits for the end and prints the window's measurements
# (frames, longest frame, frames over 16 ms, longest main-loop stall) from its debug state.
#   tools/gui-frames.sh [BROWSE] [second]
# With "second", the first analysis is stopped after 2 s (its Stop button) and the measured one
# is the second of the session. Needs Xvfb, xdotool and python3; build first with
# `cargo build --release -p cubeful-gtk`. BIN overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
BROWSE=${1:-40}
SECOND=${2:-}
BIN=${BIN:-target/release/cubeful}
MAT=../shared/corpus/mat/gnubg/gnubgparser_gnubg_selfplay_drops_7p.mat
WORK=$(mktemp -d)
DISPLAY_NUM=:$((90 + RANDOM % 100))
Xvfb "$DISPLAY_NUM" -screen 0 1400x900x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null; kill ${APP:-0} 2>/dev/null; rm -rf "$WORK"' EXIT
export DISPLAY=$DISPLAY_NUM
sleep 1
GDK_BACKEND=x11 GSK_RENDERER=cairo XDG_CONFIG_HOME=$WORK/c XDG_CACHE_HOME=$WORK/ca \
    XDG_DATA_HOME=$WORK/d LANG=C.UTF-8 NO_AT_BRIDGE=1 \
    "$BIN" --debug-state "$WORK/state.json" "$MAT" >/dev/null 2>&1 &
APP=$!
sleep 4
WID=$(xdotool search --onlyvisible --pid $APP | head -1)
xdotool windowsize "$WID" 1200 800
sleep 1
xdotool key --window "$WID" Home
sleep 0.5
field() {
    python3 -c "import json,sys; print(json.load(open('$WORK/state.json'))['analysis']$1)"
}
xdotool key --window "$WID" ctrl+shift+a
if [ "$SECOND" = second ]; then
    sleep 2
    read -r X Y < <(python3 -c "import json; s=json.load(open('$WORK/state.json'))['analysis']; print(*map(int, s['stop_xy']))")
    xdotool mousemove --window "$WID" "$X" "$Y" click 1
    sleep 1.5
    echo "first analysis: $(field "['last_end']")"
    xdotool key --window "$WID" ctrl+shift+a
fi
for _ in $(seq 1 50); do
    [ "$(field "['running']")" = True ] && break
    sleep 0.2
done
for _ in $(seq 1 "$BROWSE"); do
    xdotool key --window "$WID" Next
    sleep 0.3
done
for _ in $(seq 1 300); do
    [ "$(field "['running']")" = True ] || break
    sleep 1
done
python3 -c "
import json
s = json.load(open('$WORK/state.json'))['analysis']
print({k: s[k] for k in ['stored', 'last_end', 'frames', 'longest_frame_ms', 'frames_over_16ms', 'longest_stall_ms']})"
