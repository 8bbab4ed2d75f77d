# Sourced by the round scripts (training/adam26.sh, training/adam27.sh), which set WORK (with
# data/ and nets/ in it), BASE and OUT.
#
# `take DIR N PREFIX` hard-links the first N chunks of the labelled set DIR into "$WORK/data" as
# PREFIX-chunk-NNNNN.bin (the trainer reads a folder in name order, so the prefixes fix the order
# of the examples). Every one of the N chunks must exist: a round never trains on a set that is
# still short.
take() {
    for i in $(seq 0 $(($2 - 1))); do
        f=$1/$(printf 'chunk-%05d.bin' "$i")
        [ -f "$f" ] || { echo "$(basename "$0"): $f is not labelled yet"; exit 1; }
        ln "$f" "$WORK/data/$3-$(basename "$f")"
    done
}

# `keep_trained CLASS` copies the trained CLASS.net from "$WORK/nets" into "$OUT", with its
# pruning net, or BASE's pruning net when the round made none (PRUNE=0, for trials judged at
# 0-ply).
keep_trained() {
    cp "$WORK/nets/$1.net" "$OUT/"
    if [ -f "$WORK/nets/prune-$1.net" ]; then cp "$WORK/nets/prune-$1.net" "$OUT/"
    else cp "$BASE/prune-$1.net" "$OUT/"; fi
}
