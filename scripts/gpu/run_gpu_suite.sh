#!/usr/bin/env bash
# Builds here, into the git-ignored build-gpu/, everything a GPU run needs (the backend, the CPU
# reference and cuDNN plugins, the GPU tests, the GPU benchmarks, hipdnn-driver, the C++ frontend's
# execute benchmark), adds the FlatBuffers headers the Python binding compiles against
# (build-gpu/include), strips the binaries and prints the `run` invocations (device tool) that
# carry build-gpu to the GPU machine and call scripts/gpu/remote.sh or scripts/gpu/python_gpu.sh there.
#   scripts/gpu/run_gpu_suite.sh [build dir, default build-gpu]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd -P)
build_dir=${1:-build-gpu}
cd "$root"
cmake -G Ninja -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DHIPDNN_BUILD_CPU_PLUGINS=ON \
    -DHIPDNN_BUILD_SAMPLES=OFF -DHIPDNN_BUILD_BENCH=ON
ninja -C "$build_dir" -j"${HIPDNN_BUILD_JOBS:-2}" hipdnn_backend cpu_reference hipdnn_plugin_cudnn \
    hipdnn_cudnn_unit_tests hipdnn_cudnn_integration_tests hipdnn_cudnn_bench hipdnn-driver \
    hipdnn_plugin_cuda_kernels hipdnn_cuda_kernels_unit_tests hipdnn_cuda_kernels_integration_tests \
    hipdnn_cuda_kernels_bench hipdnn_bench_frontend_execute \
    hipdnn_differential_fuzzer
# The oneDNN plugin cannot load on the GPU machine (no libdnnl there): it stays behind.
rm -f "$build_dir"/lib/hipdnn_plugins/engines/libhipdnn_plugin_onednn.so
# Non-system shared libraries the binaries need (the GPU machine has no FlatBuffers and no Google
# Benchmark) travel too.
mkdir -p "$build_dir/lib/carried"
ldd "$build_dir/lib/libhipdnn_backend.so" "$build_dir/bin/hipdnn_bench_frontend_execute" |
    awk '/libflatbuffers|libbenchmark/ {print $3}' | sort -u | xargs -r -I{} cp -L {} "$build_dir/lib/carried/"
# The Python binding is built there (scripts/gpu/python_gpu.sh) against the frontend's headers,
# which include FlatBuffers' own: those headers travel in build-gpu/include.
flatbuffers_header=$(printf '#include <flatbuffers/flatbuffers.h>\n' | c++ -x c++ -M - | tr ' ' '\n' |
    grep '/flatbuffers/flatbuffers.h$')
rm -rf "$build_dir/include/flatbuffers"
mkdir -p "$build_dir/include"
cp -r "$(dirname "$flatbuffers_header")" "$build_dir/include/"
# Only what runs travels: binaries stripped, object files and static libraries left behind.
find "$build_dir/bin" "$build_dir/lib" -type f \( -name '*.so*' -o -perm -u+x \) -exec strip --strip-unneeded {} + 2>/dev/null || true
find "$build_dir" \( -name '*.o' -o -name '*.a' \) -delete
du -sh "$build_dir"
cat <<RUN
Run on the GPU machine with the device tool:
  run(command: "bash scripts/gpu/remote.sh $build_dir $root", carry: ["$build_dir"], timeout_s: 600)
Logs come back under \$OUT: machine.txt, ctest_gpu.log, ctest_gpu_cudnn914.log, demo_gpu.log and
demo_gpu.json, sanitizer_{memcheck,racecheck,synccheck}.log, bench_hipdnn.log, bench_pytorch.log,
bench_compare.md, bench_hipdnn_tuned.log, bench_compare_tuned.md, bench_cuda_kernels.log,
differential_gpu.log.
The Python binding, its tests and the execute-overhead benchmarks:
  run(command: "bash scripts/gpu/python_gpu.sh $build_dir $root", carry: ["$build_dir"], timeout_s: 600)
Logs: python_machine.txt, python_build.log, pytest_gpu.log, pytest_gpu.xml, bench_execute_overhead.log.
RUN
