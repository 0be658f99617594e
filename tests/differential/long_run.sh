#!/bin/bash
# Runs graphs [0, COUNT) of SEED on the CPU engines. A guard-page fault ends the fuzzer: the graphs
# before the faulting one are rerun for their counts and the run continues after it. Each
# segment's summary line is printed; outputs are kept in OUTDIR.
#   tests/differential/long_run.sh build/release/bin/hipdnn_differential_fuzzer 1 100000 /tmp/differential
set -u
FUZZER=$1 SEED=$2 COUNT=$3 OUTDIR=$4
mkdir -p "$OUTDIR"
first=0
start=$(date +%s)
while [ "$first" -lt "$COUNT" ]; do
    out="$OUTDIR/from_$first.txt"
    "$FUZZER" --device cpu --seed "$SEED" --first "$first" --graphs $((COUNT - first)) > "$out" 2>&1
    faulting=$(grep -A1 '^FAULT' "$out" | grep -o -- '--first [0-9]*' | head -1 | cut -d' ' -f2)
    if [ -z "$faulting" ]; then
        echo "segment [$first, $COUNT): $(grep '^summary' "$out")"
        break
    fi
    echo "fault at graph $faulting: $out"
    if [ "$faulting" -gt "$first" ]; then
        "$FUZZER" --device cpu --seed "$SEED" --first "$first" --graphs $((faulting - first)) > "$out.before" 2>&1
        echo "segment [$first, $faulting): $(grep '^summary' "$out.before")"
    fi
    first=$((faulting + 1))
done
echo "wall $(($(date +%s) - start)) s"
