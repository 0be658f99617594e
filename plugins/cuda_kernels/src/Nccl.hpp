// NCCL, loaded at first use with dlopen so that the plugin loads without it: only synchronized
// batch norm (peer_stats) sums statistics across GPUs, through the communicator the backend hands
// each plugin handle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace hipdnn_cuda_kernels {

/// The file name dlopen is asked for; the loader's search path finds it.
inline constexpr const char* kNcclLibraryName = "libnccl.so.2";

class Nccl {
public:
    /// ncclResult_t; 0 is ncclSuccess. NCCL's C ABI is declared here as far as the engines use it
    /// (its enums are ints, ncclComm_t and cudaStream_t pointers), so that building needs no nccl.h.
    using Result = int;
    static constexpr Result kSuccess = 0;
    static constexpr int kFloat64 = 8;  // ncclFloat64
    static constexpr int kSum = 0;      // ncclSum

    struct Functions {
        const char* (*getErrorString)(Result result) = nullptr;
        Result (*commCount)(void* communicator, int* count) = nullptr;
        Result (*commCuDevice)(void* communicator, int* device) = nullptr;
        Result (*allReduce)(const void* send, void* receive, size_t count, int dataType, int operation,
                            void* communicator, void* stream) = nullptr;
    };

    /// The process-wide instance, loaded on the first call; null with `reason` ("NCCL is not
    /// available: ...") when the library or a function is missing.
    static const Nccl* instance(std::string& reason);
    static std::unique_ptr<Nccl> load(const char* libraryName, std::string& reason);

    /// Whether `communicator` has `ranks` ranks and this rank's GPU is `ordinal`; false with
    /// `reason` naming what differs or the failing call.
    bool matches(void* communicator, int64_t ranks, int ordinal, std::string& reason) const;

    /// Sums `count` doubles at `buffer` over every rank of `communicator`, in place, on `stream`.
    /// Throws PluginError(INTERNAL_ERROR) with NCCL's message when NCCL refuses the call.
    void sumDoubles(void* buffer, size_t count, void* communicator, void* stream) const;

    ~Nccl();
    Nccl(const Nccl&) = delete;
    Nccl& operator=(const Nccl&) = delete;

private:
    Nccl(void* library, const Functions& functions) : _library(library), _functions(functions) {}
    std::string describe(const char* call, Result result) const;

    void* _library;
    Functions _functions;
};

}  // namespace hipdnn_cuda_kernels
