#!/usr/bin/env bash
# Runs on the GPU machine (called by the `run` command that scripts/gpu/run_gpu_suite.sh prints),
# from the repository root of the copied working tree, with the carried build directory.
#   scripts/gpu/remote.sh <build dir relative to the repo root> <absolute repo root it was built in>
# HIPDNN_GPU_TESTS, HIPDNN_GPU_RUN_914, HIPDNN_GPU_DEMO, HIPDNN_GPU_SANITIZE,
# HIPDNN_GPU_DIFFERENTIAL, HIPDNN_GPU_BENCH and HIPDNN_GPU_TUNE (each default 1) select the parts.
# Puts the venv's cuDNN 9.19 first on the library path (the system has 9.14), runs
# `ctest -L gpu` and the GPU benchmarks (ours with default and with timed plan choice, and
# PyTorch's), and writes logs into $OUT.
set -u
build_dir=${1:-build-gpu}
built_root=${2:-/work/main}
out=${OUT:-/tmp/hipdnn-gpu-out}
mkdir -p "$out"
venv=/opt/torch/.venv
cudnn_dir=$venv/lib/python3.12/site-packages/nvidia/cudnn/lib
# Shared libraries the GPU machine lacks (FlatBuffers) travel in <build>/lib/carried.
carried=$(pwd -P)/$build_dir/lib/carried
export LD_LIBRARY_PATH=$cudnn_dir:$carried${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# CTest files hold absolute paths of the machine that built them: make that path resolve here.
if [ "$(pwd -P)" != "$built_root" ] && [ ! -e "$built_root" ]; then
    mkdir -p "$(dirname "$built_root")"
    ln -s "$(pwd -P)" "$built_root"
fi

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    for path in "$cudnn_dir" /usr/lib/x86_64-linux-gnu; do
        LD_LIBRARY_PATH=$path python3 -c "import ctypes; print('cuDNN in $path:', ctypes.CDLL('libcudnn.so.9').cudnnGetVersion())"
    done
} > "$out/machine.txt" 2>&1

cd "$built_root/$build_dir" || exit 1
if [ "${HIPDNN_GPU_TESTS:-1}" = 1 ]; then
    ctest -L gpu --output-on-failure --timeout 120 -j 4 > "$out/ctest_gpu.log" 2>&1
    echo "ctest -L gpu exit $?" >> "$out/ctest_gpu.log"
    tail -5 "$out/ctest_gpu.log"
fi

# The same suite against the system's cuDNN 9.14: the plugin must degrade cleanly there.
if [ "${HIPDNN_GPU_RUN_914:-1}" = 1 ]; then
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:$carried ctest -L gpu -R Smoke --timeout 120 -j 4 \
        > "$out/ctest_gpu_cudnn914.log" 2>&1
    echo "ctest (cuDNN 9.14) exit $?" >> "$out/ctest_gpu_cudnn914.log"
    tail -3 "$out/ctest_gpu_cudnn914.log"
fi

# The README's main job on the GPU: must exit 0 with every graph PASSED on a GPU engine.
if [ "${HIPDNN_GPU_DEMO:-1}" = 1 ] && [ -x ./bin/hipdnn-driver ]; then
    ./bin/hipdnn-driver demo --json "$out/demo_gpu.json" > "$out/demo_gpu.log" 2>&1
    echo "hipdnn-driver demo exit $?" >> "$out/demo_gpu.log"
    tail -2 "$out/demo_gpu.log"
fi

# compute-sanitizer's memcheck, racecheck and synccheck over the GPU plugins' Smoke suites
# (HIPDNN_GPU_SANITIZE_SUITES overrides the list: suites separated by ';'), each suite split into
# HIPDNN_GPU_SANITIZE_SHARDS gtest shards (default 3; unit tests run whole) and every (tool, suite, shard) run at once,
# each for at most HIPDNN_GPU_SANITIZE_SECONDS (default 400). One unsanitized pass first fills a
# kernel cache, so the sanitized runs load compiled kernels instead of running NVRTC under the
# tool. racecheck and synccheck leave out the cuDNN attention tests: on the H200 both report
# hazards inside cuDNN's own closed Hopper flash-attention kernels (wgmma with mbarrier
# synchronization, which these tools are known to misread); those tests run under memcheck, and
# under the other two tools in a separate, reported pass (sanitizer_cudnn_attention.log).
# racecheck also leaves out the two cuDNN sweeps that run every configuration cuDNN publishes for a
# graph (SmokeCudnnEngineConfigs.EveryPublishedEngineIndexRunsCorrectly and
# .BenchmarkingPicksAPlanThatRunsCorrectly): instrumented, each of cuDNN's hundreds of closed
# kernels takes seconds and either test alone outlasts the limit; they run under memcheck and
# synccheck. The cuDNN integration suite is split into twice as many shards as the others. Each
# log ends with the tool's error summary and the exit status.
if [ "${HIPDNN_GPU_SANITIZE:-1}" = 1 ]; then
    shards=${HIPDNN_GPU_SANITIZE_SHARDS:-3}
    limit=${HIPDNN_GPU_SANITIZE_SECONDS:-400}
    IFS=';' read -r -a suites <<< "${HIPDNN_GPU_SANITIZE_SUITES:-hipdnn_cudnn_unit_tests;hipdnn_cudnn_integration_tests --gtest_filter=*Smoke*;hipdnn_cuda_kernels_unit_tests;hipdnn_cuda_kernels_integration_tests --gtest_filter=*Smoke*}"
    cache=$(mktemp -d)
    HIPDNN_CACHE_DIR=$cache ./bin/hipdnn_cuda_kernels_integration_tests --gtest_filter='*Smoke*' > /dev/null 2>&1
    sanitize() {  # tool, log, suite words...
        local tool=$1 log=$2
        shift 2
        (HIPDNN_CACHE_DIR=$cache timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 99 "$@" > "$log" 2>&1
            echo "compute-sanitizer --tool $tool $* ${GTEST_TOTAL_SHARDS:+(shard $GTEST_SHARD_INDEX of $GTEST_TOTAL_SHARDS) }exit $?" >> "$log") &
    }
    set -f  # the suites' gtest filters are not file patterns
    for tool in memcheck racecheck synccheck; do
        for index in "${!suites[@]}"; do
            # shellcheck disable=SC2206 # the suite's arguments split on purpose
            suite=(${suites[$index]})
            parts=$shards
            if [[ ${suite[0]} == hipdnn_cudnn_integration_tests ]]; then
                parts=$((shards * 2))
                [ "$tool" != memcheck ] && suite[1]="${suite[1]:---gtest_filter=*}-*Attention*"
                [ "$tool" = racecheck ] && suite[1]="${suite[1]}:SmokeCudnnEngineConfigs.EveryPublishedEngineIndexRunsCorrectly:SmokeCudnnEngineConfigs.BenchmarkingPicksAPlanThatRunsCorrectly"
            fi
            # A unit-test shard may make no CUDA call, which the tool reports as an error.
            [[ ${suite[0]} == *_unit_tests ]] && parts=1
            for shard in $(seq 0 $((parts - 1))); do
                GTEST_TOTAL_SHARDS=$parts GTEST_SHARD_INDEX=$shard \
                    sanitize "$tool" "$out/sanitizer_${tool}_${index}_$shard.part" "./bin/${suite[0]}" "${suite[@]:1}"
            done
        done
    done
    if [[ " ${suites[*]} " == *" hipdnn_cudnn_integration_tests "* ]]; then
        for tool in racecheck synccheck; do
            sanitize "$tool" "$out/sanitizer_attention_$tool.part" ./bin/hipdnn_cudnn_integration_tests \
                '--gtest_filter=SmokeAttention*'
        done
    fi
    set +f
    wait
    rm -rf "$cache"
    for tool in memcheck racecheck synccheck attention; do
        ls "$out"/sanitizer_"$tool"_*.part > /dev/null 2>&1 || continue
        log=$out/sanitizer_$tool.log
        [ "$tool" = attention ] && log=$out/sanitizer_cudnn_attention.log
        cat "$out"/sanitizer_"$tool"_*.part > "$log" && rm -f "$out"/sanitizer_"$tool"_*.part
        grep -E "ERROR SUMMARY|exit [0-9]+$" "$log"
    done
fi

# The differential fuzzer on the GPU engines: HIPDNN_GPU_DIFFERENTIAL_PROCESSES processes (default
# 12) at once, process k on seed 1's graphs from HIPDNN_GPU_DIFFERENTIAL_FIRST (default 0) +
# k * HIPDNN_GPU_DIFFERENTIAL_GRAPHS (default 100000) for that many graphs or
# HIPDNN_GPU_DIFFERENTIAL_SECONDS (default 120); one summary line per process
# (tests/differential/README.md).
if [ "${HIPDNN_GPU_DIFFERENTIAL:-1}" = 1 ] && [ -x ./bin/hipdnn_differential_fuzzer ]; then
    processes=${HIPDNN_GPU_DIFFERENTIAL_PROCESSES:-12}
    seconds=${HIPDNN_GPU_DIFFERENTIAL_SECONDS:-120}
    first=${HIPDNN_GPU_DIFFERENTIAL_FIRST:-0}
    graphs=${HIPDNN_GPU_DIFFERENTIAL_GRAPHS:-100000}
    cache=$(mktemp -d)
    for k in $(seq 0 $((processes - 1))); do
        HIPDNN_CACHE_DIR=$cache timeout $((seconds + 120)) ./bin/hipdnn_differential_fuzzer --device gpu --seed 1 \
            --first $((first + k * graphs)) --graphs "$graphs" --seconds "$seconds" > "$out/differential_gpu_$k.log" 2>&1 &
    done
    wait
    rm -rf "$cache"
    cat "$out"/differential_gpu_*.log > "$out/differential_gpu.log" && rm -f "$out"/differential_gpu_[0-9]*.log
    grep -E "^summary|^DISAGREEMENT|^FAILURE" "$out/differential_gpu.log" | cut -c1-300
fi

if [ "${HIPDNN_GPU_BENCH:-1}" = 1 ]; then
    ./bin/hipdnn_cudnn_bench > "$out/bench_hipdnn.log" 2>&1
    "$venv/bin/python" "$built_root/plugins/cudnn/bench/pytorch_gpu.py" > "$out/bench_pytorch.log" 2>&1
    python3 "$built_root/scripts/gpu/compare_bench.py" "$out/bench_hipdnn.log" "$out/bench_pytorch.log" \
        > "$out/bench_compare.md" 2>&1
    # The same problems with every plan chosen by timing (global.benchmarking), as PyTorch's
    # cudnn.benchmark = True chooses its algorithms.
    HIPDNN_FORCE_BENCHMARKING=1 ./bin/hipdnn_cudnn_bench > "$out/bench_hipdnn_tuned.log" 2>&1
    python3 "$built_root/scripts/gpu/compare_bench.py" "$out/bench_hipdnn_tuned.log" "$out/bench_pytorch.log" \
        > "$out/bench_compare_tuned.md" 2>&1
fi
# CUDA_POINTWISE_ENGINE: the first run plans with an empty kernel cache (NVRTC), the second
# from the disk cache the first wrote (plan_ms), both time the fused kernels (gbps).
if [ "${HIPDNN_GPU_BENCH:-1}" = 1 ] && [ -x ./bin/hipdnn_cuda_kernels_bench ]; then
    cache=$(mktemp -d)
    for run in cold-cache disk-cache; do
        echo "# $run" >> "$out/bench_cuda_kernels.log"
        HIPDNN_CACHE_DIR=$cache ./bin/hipdnn_cuda_kernels_bench >> "$out/bench_cuda_kernels.log" 2>&1
    done
    rm -rf "$cache"
    # Its peers on the same problem: PyTorch eager, torch.compile and a copy (the ceiling).
    "$venv/bin/python" "$built_root/plugins/cuda_kernels/bench/pytorch_pointwise.py" \
        >> "$out/bench_cuda_kernels.log" 2>&1
    cat "$out/bench_cuda_kernels.log"
fi
# Tuning that lasts (HIPDNN_GPU_TUNE, default 1): `hipdnn-driver tune` fills a fresh database with
# the ResNet-50 convolution layers (every plan of every engine, cuDNN's engine indices included),
# then a new process runs the same batch with default settings on that database, and PyTorch
# (cudnn.benchmark) times the same problems: tune.log, tuned_batch.log / .csv, tuned_compare.md
# (one row per layer and a summary per data type), tuning.jsonl (the database).
if [ "${HIPDNN_GPU_TUNE:-1}" = 1 ] && [ -x ./bin/hipdnn-driver ]; then
    batch=$built_root/tools/driver/tests/data/resnet50_conv.batch
    database=$(mktemp -d)
    HIPDNN_CACHE_DIR=$database timeout "${HIPDNN_GPU_TUNE_SECONDS:-400}" ./bin/hipdnn-driver --device gpu \
        --warmup 3 --iters 10 tune "$batch" > "$out/tune.log" 2>&1
    echo "hipdnn-driver tune exit $?" >> "$out/tune.log"
    tail -1 "$out/tune.log"
    HIPDNN_CACHE_DIR=$database timeout 150 ./bin/hipdnn-driver --device gpu --run performance --warmup 10 --iters 30 \
        --csv "$out/tuned_batch.csv" batch "$batch" > "$out/tuned_batch.log" 2>&1
    echo "hipdnn-driver batch exit $?" >> "$out/tuned_batch.log"
    cp "$database/tuning.jsonl" "$out/" 2>/dev/null
    rm -rf "$database"
    "$venv/bin/python" "$built_root/plugins/cudnn/bench/pytorch_conv_batch.py" "$batch" \
        --driver-csv "$out/tuned_batch.csv" --warmup 10 --iters 30 > "$out/tuned_compare.md" 2>&1
    grep -E "^SUMMARY|Error|error" "$out/tuned_compare.md"
fi
grep -E "HOSTCALL" "$out"/bench_hipdnn*.log 2>/dev/null
exit 0
