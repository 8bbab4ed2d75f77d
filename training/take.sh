# Sourced by the round scripts (training/adam26.sh, training/adam27.sh): `take DIR N PREFIX`
# hard-links the first N chunks of the labelled set DIR into "$WORK/data" as PREFIX-chunk-NNNNN.bin
# (the trainer reads a folder in name order, so the prefixes fix the order of the examples).
# Every one of the N chunks must exist: a round never trains on a set that is still short.
take() {
    for i in $(seq 0 $(($2 - 1))); do
        f=$1/$(printf 'chunk-%05d.bin' "$i")
        [ -f "$f" ] || { echo "$(basename "$0"): $f is not labelled yet"; exit 1; }
        ln "$f" "$WORK/data/$3-$(basename "$f")"
    done
}
