#!/bin/bash
# The end of a contact round (training/adam31b.sh, training/adam32.sh): the contact net of NETS
# (the folder a fine-tune wrote) with adam31r's crashed and race nets and their pruning nets,
# and a pruning contact net distilled from it (`train prune` on training/label2p, with adam31r's
# other nets beside it; PRUNE=0 takes adam31r's instead): the six nets into OUT.
# Usage: training/assemble-contact.sh NETS OUT   (PRUNE; THREADS, default 1; CLI)
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,6p' "$0" >&2; exit 2; }
NETS=$1 OUT=$2
CLI=${CLI:-training/bin/cubeful-cli}
PRUNED=$(mktemp -d training/.pruned.XXXXXX)
trap 'rm -rf "$PRUNED"' EXIT
cp training/adam31r/crashed.net training/adam31r/race.net "$NETS/"
if [ "${PRUNE:-1}" = 1 ]; then
    "$CLI" train prune --nets "$NETS" --data-dir training/label2p --out "$PRUNED" \
        --threads "${THREADS:-1}" > "$PRUNED/prune.log"
    cp "$PRUNED/prune-contact.net" "$NETS/"
else
    cp training/adam31r/prune-contact.net "$NETS/"
fi
mkdir -p "$OUT"
cp training/adam31r/crashed.net training/adam31r/race.net training/adam31r/prune-crashed.net \
    training/adam31r/prune-race.net "$NETS/contact.net" "$NETS/prune-contact.net" "$OUT/"
