// One execution of a plan on fresh buffers of its device: inputs copied in, outputs filled with
// NaN first (so that an element an engine never writes cannot pass), outputs copied back.
#pragma once

#include <hipdnn_flatbuffers_sdk/data_objects/graph_generated.h>
#include <hipdnn_test_sdk/BackendRun.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hipdnn_differential {

/// A non-virtual tensor of a graph that a variant pack binds.
struct TensorSpec {
    int64_t uid = 0;
    std::string name;
    hipdnn_flatbuffers_sdk::data_objects::DataType dataType{};
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    size_t bytes = 0;
};

/// uid -> the tensor's storage bytes on the host.
using HostTensors = std::map<int64_t, std::vector<std::byte>>;

using Executor =
    std::function<HostTensors(const hipdnn_test_sdk::BackendPlan& plan, const std::vector<TensorSpec>& inputs,
                              const std::vector<TensorSpec>& outputs, const HostTensors& values)>;

/// Host buffers against guard pages (GuardedBuffer), inputs read-only, the workspace guarded too.
HostTensors executeOnHost(const hipdnn_test_sdk::BackendPlan& plan, const std::vector<TensorSpec>& inputs,
                          const std::vector<TensorSpec>& outputs, const HostTensors& values);

/// True when this build can place buffers on a CUDA device.
bool gpuExecutionBuilt();

/// The CUDA error that survives being cleared, or nullopt while the device still works: an
/// illegal address poisons the process's CUDA context, and every later CUDA call fails with it.
/// Always nullopt without CUDA in the build.
std::optional<std::string> stickyGpuError();

/// Device buffers (DeviceBuffer of the test SDK); throws when gpuExecutionBuilt() is false.
HostTensors executeOnGpu(const hipdnn_test_sdk::BackendPlan& plan, const std::vector<TensorSpec>& inputs,
                         const std::vector<TensorSpec>& outputs, const HostTensors& values);

}  // namespace hipdnn_differential
