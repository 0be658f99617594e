#include "platform/Nccl.hpp"

#include <dlfcn.h>

#include <string>

#include "logging/Logger.hpp"

namespace hipdnn_backend::platform {

namespace {

constexpr const char* kNcclLibrary = "libnccl.so.2";

}  // namespace

const NcclApi& NcclApi::instance() {
    static const NcclApi api;
    if (!api._unavailable.empty()) {
        throw NcclUnavailable(api._unavailable);
    }
    return api;
}

void NcclApi::check(NcclResult result, const char* call) const {
    if (result == 0) {
        return;
    }
    const char* description = getErrorString(result);
    throw NcclError(std::string(call) +
                    " failed: " + (description != nullptr ? description : "an unknown error") + " (" +
                    std::to_string(result) + ")");
}

NcclApi::NcclApi() {
    void* library = dlopen(kNcclLibrary, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* error = dlerror();
        _unavailable = std::string("NCCL is not available: cannot load ") + kNcclLibrary + ": " +
                       (error != nullptr ? error : "dlopen failed without a message");
        return;
    }
    resolve(library, commInitAll, "ncclCommInitAll");
    resolve(library, commDestroy, "ncclCommDestroy");
    resolve(library, getErrorString, "ncclGetErrorString");
}

template <typename Function>
void NcclApi::resolve(void* library, Function& slot, const char* symbol) {
    slot = reinterpret_cast<Function>(dlsym(library, symbol));
    if (slot == nullptr && _unavailable.empty()) {
        _unavailable = std::string("NCCL is not available: ") + kNcclLibrary + " lacks " + symbol;
    }
}

void NcclCommDestroyer::operator()(NcclComm communicator) const noexcept {
    try {
        const NcclApi& nccl = NcclApi::instance();
        nccl.check(nccl.commDestroy(communicator), "ncclCommDestroy");
    } catch (const std::exception& error) {
        HIPDNN_LOG_ERROR("Cannot destroy NCCL communicator {}: {}", static_cast<const void*>(communicator),
                         error.what());
    }
}

std::vector<NcclCommunicator> createNcclCommunicators(const std::vector<int>& ordinals) {
    const NcclApi& nccl = NcclApi::instance();
    std::vector<NcclComm> created(ordinals.size(), nullptr);
    // Room first: once NCCL made them, taking ownership must not fail.
    std::vector<NcclCommunicator> communicators;
    communicators.reserve(ordinals.size());
    nccl.check(nccl.commInitAll(created.data(), static_cast<int>(ordinals.size()), ordinals.data()),
               "ncclCommInitAll");
    for (NcclComm communicator : created) {
        communicators.emplace_back(communicator);
    }
    return communicators;
}

}  // namespace hipdnn_backend::platform
