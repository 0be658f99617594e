#!/usr/bin/env bash
# Builds every libFuzzer target of PRESET (default sanitize-fast: clang, ASan + UBSan at -O1 -g;
# sanitize is the same at -O0, several times slower) and runs each for SECONDS (default 60), at
# most JOBS at a time (default: the number of cores), LeakSanitizer on. Each target keeps its
# corpus in build/<preset>/tests/fuzz/corpus/<target> and starts from its seeds; a crash, a
# sanitizer report or a leak stops that target with its reproducer in
# build/<preset>/tests/fuzz/findings/<target>. Prints, per target, the inputs run and the
# outcome, then the total; exits non-zero when any target found something. TARGETS (a
# space-separated list) builds and runs only those targets.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
jobs=${JOBS:-$(nproc)}
preset=${PRESET:-sanitize-fast}
build=$root/build/$preset
cmake --preset "$preset" -S "$root" >/dev/null
# shellcheck disable=SC2086
cmake --build --preset "$preset" --target ${TARGETS:-hipdnn_fuzzers}

fuzz=$build/tests/fuzz
declare -A seeds=(
    [hipdnn_backend_fuzzer]="$fuzz/seeds"
    [hipdnn_knob_fuzzer]="$fuzz/knob_seeds"
    [hipdnn_driver_graph_fuzzer]="$fuzz/driver_graph_seeds"
    [hipdnn_driver_batch_fuzzer]="$fuzz/driver_batch_seeds"
    [hipdnn_plugin_fuzzer_cpu_reference]="$fuzz/seeds"
    [hipdnn_plugin_fuzzer_onednn]="$fuzz/seeds"
)
run_one() {
    local target=$1
    mkdir -p "$fuzz/corpus/$target" "$fuzz/findings/$target" "$fuzz/logs"
    # The backend fuzzer's graphs are intake only: no plugin is loaded.
    # shellcheck disable=SC2086
    HIPDNN_PLUGIN_DIR=$fuzz/no_plugins ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        OMP_NUM_THREADS=1 "$build/bin/$target" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=30 \
        -print_final_stats=1 -artifact_prefix="$fuzz/findings/$target/" "$fuzz/corpus/$target" ${seeds[$target]} \
        >"$fuzz/logs/$target.log" 2>&1
}
targets=()
for target in ${TARGETS:-$(printf '%s\n' "${!seeds[@]}" | sort)}; do
    [[ -x $build/bin/$target ]] && targets+=("$target")
done
# A target's outcome is read from its log and findings below, not from its exit status.
for target in "${targets[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs)); do
        wait -n || true
    done
    run_one "$target" || true &
done
wait
status=0

total=0
for target in "${targets[@]}"; do
    log=$fuzz/logs/$target.log
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # libFuzzer also saves inputs slower than 10 s (slow-unit-*): on loaded cores that is the
    # machine, not a finding; they are listed for replay, not counted.
    findings=$(find "$fuzz/findings/$target" -type f ! -name 'slow-unit-*' | wc -l)
    slow=$(find "$fuzz/findings/$target" -type f -name 'slow-unit-*' | wc -l)
    outcome=clean
    if [[ -z $runs || $findings -gt 0 ]]; then
        outcome="FOUND SOMETHING (see $log)"
        status=1
    fi
    ((slow > 0)) && outcome+=" ($slow slow inputs saved; replay each: bin/$target <file>)"
    printf '%-38s %12s inputs  %s\n' "$target" "${runs:-?}" "$outcome"
    total=$((total + ${runs:-0}))
done
printf '%-38s %12s inputs\n' total "$total"
exit $status
