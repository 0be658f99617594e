#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root of the copied working tree, with the build
# directory that scripts/gpu/run_gpu_suite.sh staged (carried):
#   scripts/gpu/python_gpu.sh <build dir relative to the repo root> <absolute repo root it was built in>
# Builds the Python binding against that build with /opt/torch/.venv's Python 3.12 and nanobind
# (into <build>/python, staged for import in <build>/python-stage: nothing is installed), then
# runs `pytest python/tests` and the execute-overhead benchmarks on the GPU and the CPU. Logs go
# into $OUT: python_machine.txt, python_build.log, pytest_gpu.log (+ pytest_gpu.xml),
# bench_execute_overhead.log.
set -u
build_dir=${1:-build-gpu}
built_root=${2:-/work/main}
out=${OUT:-/tmp/hipdnn-gpu-out}
mkdir -p "$out"
root=$(pwd -P)
venv=${HIPDNN_GPU_VENV:-/opt/torch/.venv}  # another venv for a trial run elsewhere
python=$venv/bin/python
build=$root/$build_dir
cudnn_dir=$venv/lib/python3.12/site-packages/nvidia/cudnn/lib
# Shared libraries the GPU machine lacks (FlatBuffers) travel in <build>/lib/carried, their
# headers in <build>/include (scripts/gpu/run_gpu_suite.sh copies both).
export LD_LIBRARY_PATH=$cudnn_dir:$build/lib/carried${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONUNBUFFERED=1
# The venv's cmake and ninja where the system has none.
export PATH=$venv/bin:$PATH
# The system's g++, whatever CXX says: that machine's CXX (/opt/gcc/bin/g++) links libstdc++
# statically into shared objects, and a module with its own libstdc++ beside the backend's shared
# one crashes in the first number it writes to a stream (seen on the H200 machine).
export CXX=${HIPDNN_GPU_CXX:-/usr/bin/g++}

# Paths recorded at build time (CTest files, the plugins' build tree) name the building machine's
# root: make it resolve here too.
if [ "$root" != "$built_root" ] && [ ! -e "$built_root" ]; then
    mkdir -p "$(dirname "$built_root")"
    ln -s "$root" "$built_root"
fi
# The binding links lib/libhipdnn_backend.so; recreate the development symlink if the copy dropped it.
if [ ! -e "$build/lib/libhipdnn_backend.so" ]; then
    versioned=$(find "$build/lib" -maxdepth 1 -name 'libhipdnn_backend.so.*' | sort | tail -1)
    ln -sf "$(basename "$versioned")" "$build/lib/libhipdnn_backend.so"
fi

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    "$python" -c "import sys, torch, numpy, nanobind, pytest; print(sys.version); print('torch', torch.__version__, 'cuda', torch.version.cuda, 'devices', torch.cuda.device_count(), 'cudnn', torch.backends.cudnn.version()); print('numpy', numpy.__version__, 'nanobind', nanobind.__version__, 'pytest', pytest.__version__)"
    command -v cmake ninja
    echo "CXX=$CXX"
    "$CXX" --version | head -1
    ls "$build/include" "$build/lib" "$build/lib/carried" "$build/lib/hipdnn_plugins/engines"
} > "$out/python_machine.txt" 2>&1

# What the binding's build and the tests need from the staged build (run_gpu_suite.sh stages it).
missing=0
for path in lib/libhipdnn_backend.so.0 flatbuffers_sdk/generated include/flatbuffers/flatbuffers.h \
    lib/hipdnn_plugins/engines/libcpu_reference.so lib/hipdnn_plugins/engines/libhipdnn_plugin_cudnn.so \
    lib/hipdnn_plugins/engines/libhipdnn_plugin_cuda_kernels.so; do
    if [ ! -e "$build/$path" ]; then
        echo "python_gpu.sh: $build/$path is missing (stage the build with scripts/gpu/run_gpu_suite.sh)" |
            tee -a "$out/python_machine.txt"
        missing=1
    fi
done
[ "$missing" = 0 ] || exit 1

binding_build=$build/python
stage=$build/python-stage
# configure, build and stage the binding; extra arguments go to the CMake configure.
build_binding() (
    set -e
    nanobind_dir=$("$python" -m nanobind --cmake_dir)
    cmake -G Ninja -S "$root/python" -B "$binding_build" -DCMAKE_BUILD_TYPE=Release \
        -DHIPDNN_BUILD_DIR="$build" -DPython_EXECUTABLE="$python" -Dnanobind_DIR="$nanobind_dir" \
        -DCMAKE_CXX_FLAGS="-isystem $build/include" "$@"
    cmake --build "$binding_build" -j "$(nproc)"
    rm -rf "$stage"
    cmake --install "$binding_build" --prefix "$stage"
    cp "$root"/python/hipdnn/*.py "$stage/hipdnn/"
)
build_binding > "$out/python_build.log" 2>&1
status=$?
echo "binding build exit $status" >> "$out/python_build.log"
if [ "$status" != 0 ]; then
    # That machine's compiler may warn where this project's does not: the tests still run, and
    # the warnings stay in the log above.
    echo "retrying with warnings not as errors" | tee -a "$out/python_build.log"
    build_binding --compile-no-warning-as-error >> "$out/python_build.log" 2>&1
    status=$?
    echo "binding build (warnings not as errors) exit $status" >> "$out/python_build.log"
fi
tail -3 "$out/python_build.log"
[ "$status" = 0 ] || exit 1
export PYTHONPATH=$stage

# From outside the source tree, so that the staged package is the one imported
# (HIPDNN_GPU_PYTEST=0 skips the suite, for a run of the benchmarks alone).
if [ "${HIPDNN_GPU_PYTEST:-1}" = 1 ]; then
    (cd "$root/python/tests" && timeout 500 "$python" -m pytest -v -rs --junitxml="$out/pytest_gpu.xml" . \
        > "$out/pytest_gpu.log" 2>&1)
    echo "pytest exit $?" >> "$out/pytest_gpu.log"
    tail -3 "$out/pytest_gpu.log"
fi

# Execute overhead, Python against the C++ frontend on the same graph and engine, in alternated
# pairs (HIPDNN_GPU_OVERHEAD_PAIRS, default 4): on a GPU handle (the default plugins: both run
# CUDA_POINTWISE_ENGINE) and on a CPU handle with the CPU reference plugin alone, as measured in
# docs/Python.md.
reference_only=$(mktemp -d)
cp "$build/lib/hipdnn_plugins/engines/libcpu_reference.so" "$reference_only/"
cpp_bench=$build/bin/hipdnn_bench_frontend_execute
{
    for pair in $(seq "${HIPDNN_GPU_OVERHEAD_PAIRS:-4}"); do
        echo "# pair $pair"
        timeout 60 "$python" "$root/python/bench/execute_overhead.py" --device gpu
        [ -x "$cpp_bench" ] && timeout 60 "$cpp_bench" --benchmark_filter=gpu
        HIPDNN_PLUGIN_DIR=$reference_only timeout 60 "$python" "$root/python/bench/execute_overhead.py" --device cpu
        [ -x "$cpp_bench" ] && HIPDNN_PLUGIN_DIR=$reference_only timeout 60 "$cpp_bench" --benchmark_filter=cpu
    done
} > "$out/bench_execute_overhead.log" 2>&1
rm -rf "$reference_only"
grep -E "^# pair|BENCH|BM_ExecuteAdd.*median" "$out/bench_execute_overhead.log"
exit 0
