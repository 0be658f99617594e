#include "Nccl.hpp"

#include "DynamicLibrary.hpp"

#include <hipdnn_plugin_sdk/PluginError.hpp>

namespace hipdnn_cuda_kernels {

namespace {

constexpr const char* kUnavailable = "NCCL is not available: ";

}  // namespace

Nccl::~Nccl() {
    dlclose(_library);
}

std::unique_ptr<Nccl> Nccl::load(const char* libraryName, std::string& reason) {
    Functions functions;
    void* library = openWithFunctions(
        libraryName, kUnavailable, functions,
        [](Functions& f, const auto& resolve) {
            return resolve("ncclGetErrorString", f.getErrorString) && resolve("ncclCommCount", f.commCount) &&
                   resolve("ncclCommCuDevice", f.commCuDevice) && resolve("ncclAllReduce", f.allReduce);
        },
        reason);
    return library != nullptr ? std::unique_ptr<Nccl>(new Nccl(library, functions)) : nullptr;
}

const Nccl* Nccl::instance(std::string& reason) {
    return loadOnce<Nccl>(kNcclLibraryName, nullptr, reason);
}

std::string Nccl::describe(const char* call, Result result) const {
    const char* text = _functions.getErrorString(result);
    return std::string(call) + " failed: " + std::to_string(result) + " (" +
           (text != nullptr ? text : "no message") + ")";
}

bool Nccl::matches(void* communicator, int64_t ranks, int ordinal, std::string& reason) const {
    int count = 0;
    int device = -1;
    if (const Result result = _functions.commCount(communicator, &count); result != kSuccess) {
        reason = describe("ncclCommCount", result);
        return false;
    }
    if (const Result result = _functions.commCuDevice(communicator, &device); result != kSuccess) {
        reason = describe("ncclCommCuDevice", result);
        return false;
    }
    if (count != ranks) {
        reason = "the node has " + std::to_string(ranks) +
                 " peer_stats tensors (one per GPU of the group), " + "but the handle's communicator has " +
                 std::to_string(count) + " ranks";
        return false;
    }
    if (device != ordinal) {
        reason = "the handle's communicator is for GPU " + std::to_string(device) +
                 "; the handle is bound to GPU " + std::to_string(ordinal);
        return false;
    }
    return true;
}

void Nccl::sumDoubles(void* buffer, size_t count, void* communicator, void* stream) const {
    const Result result = _functions.allReduce(buffer, buffer, count, kFloat64, kSum, communicator, stream);
    if (result != kSuccess) {
        throw hipdnn_plugin_sdk::PluginError(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                             describe("ncclAllReduce", result));
    }
}

}  // namespace hipdnn_cuda_kernels
