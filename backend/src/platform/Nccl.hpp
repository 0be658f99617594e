// The few NCCL calls the backend makes itself: libnccl.so.2 is dlopen()ed on first use (the backend
// links no NCCL, and a host without it still runs everything else), and NCCL's types are declared
// here as its C API has them, since no NCCL header is needed to build.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_backend::platform {

// ncclComm_t points to a struct NCCL keeps opaque; ncclResult_t is an int-sized enum whose
// ncclSuccess is 0.
struct NcclCommObject;
using NcclComm = NcclCommObject*;
using NcclResult = int;

// libnccl.so.2 cannot be loaded or lacks a function; the message names the library and says why.
struct NcclUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An NCCL call failed; the message names the call and NCCL's description of the error.
struct NcclError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class NcclApi {
public:
    // Loads libnccl.so.2 once per process and never unloads it (communicators outlive any scope);
    // throws NcclUnavailable when it cannot be loaded or lacks a function.
    static const NcclApi& instance();

    // Throws NcclError "<call> failed: <ncclGetErrorString> (<result>)" unless `result` is 0.
    void check(NcclResult result, const char* call) const;

    NcclResult (*commInitAll)(NcclComm* communicators, int deviceCount, const int* devices) = nullptr;
    NcclResult (*commDestroy)(NcclComm communicator) = nullptr;
    const char* (*getErrorString)(NcclResult result) = nullptr;

private:
    NcclApi();

    template <typename Function>
    void resolve(void* library, Function& slot, const char* symbol);

    std::string _unavailable;
};

// ncclCommDestroy; a failure is logged (it runs where nothing can be reported).
struct NcclCommDestroyer {
    void operator()(NcclComm communicator) const noexcept;
};

// One NCCL communicator, destroyed with the object.
using NcclCommunicator = std::unique_ptr<NcclCommObject, NcclCommDestroyer>;

// One communicator per CUDA device of `ordinals`, rank i on ordinals[i] (ncclCommInitAll). Throws
// NcclUnavailable or NcclError.
std::vector<NcclCommunicator> createNcclCommunicators(const std::vector<int>& ordinals);

}  // namespace hipdnn_backend::platform
