#include "Execute.hpp"

#include <hipdnn_test_sdk/GuardedBuffer.hpp>

#include <cstring>

namespace hipdnn_differential {

HostTensors executeOnHost(const hipdnn_test_sdk::BackendPlan& plan, const std::vector<TensorSpec>& inputs,
                          const std::vector<TensorSpec>& outputs, const HostTensors& values) {
    using hipdnn_test_sdk::GuardedBuffer;
    std::vector<GuardedBuffer> buffers;
    buffers.reserve(inputs.size() + outputs.size() + 1);
    std::map<int64_t, void*> pointers;
    for (const TensorSpec& tensor : inputs) {
        GuardedBuffer& buffer = buffers.emplace_back(tensor.bytes);
        std::memcpy(buffer.data(), values.at(tensor.uid).data(), tensor.bytes);
        buffer.makeReadOnly();
        pointers[tensor.uid] = buffer.data();
    }
    for (const TensorSpec& tensor : outputs) {
        GuardedBuffer& buffer = buffers.emplace_back(tensor.bytes);
        std::memset(buffer.data(), 0xFF, tensor.bytes);  // NaN in every floating-point type
        pointers[tensor.uid] = buffer.data();
    }
    const auto workspaceBytes = static_cast<size_t>(plan.workspaceSize());
    void* workspace = workspaceBytes > 0 ? buffers.emplace_back(workspaceBytes).data() : nullptr;
    plan.execute(hipdnn_test_sdk::BackendVariantPack(pointers, workspace));

    HostTensors results;
    for (const TensorSpec& tensor : outputs) {
        const auto* data = static_cast<const std::byte*>(pointers.at(tensor.uid));
        results[tensor.uid].assign(data, data + tensor.bytes);
    }
    return results;
}

}  // namespace hipdnn_differential
