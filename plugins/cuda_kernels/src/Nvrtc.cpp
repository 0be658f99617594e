#include "Nvrtc.hpp"

#include "DynamicLibrary.hpp"

#include <nvrtc.h>

#include <algorithm>

namespace hipdnn_cuda_kernels {

// Only the declarations of nvrtc.h are used: each function is resolved with dlsym.
struct Nvrtc::Functions {
    decltype(&nvrtcGetErrorString) getErrorString = nullptr;
    decltype(&nvrtcVersion) version = nullptr;
    decltype(&nvrtcCreateProgram) createProgram = nullptr;
    decltype(&nvrtcDestroyProgram) destroyProgram = nullptr;
    decltype(&nvrtcCompileProgram) compileProgram = nullptr;
    decltype(&nvrtcGetProgramLogSize) getProgramLogSize = nullptr;
    decltype(&nvrtcGetProgramLog) getProgramLog = nullptr;
    decltype(&nvrtcGetCUBINSize) getCubinSize = nullptr;
    decltype(&nvrtcGetCUBIN) getCubin = nullptr;
    decltype(&nvrtcGetNumSupportedArchs) getNumSupportedArchs = nullptr;
    decltype(&nvrtcGetSupportedArchs) getSupportedArchs = nullptr;
};

namespace {

constexpr const char* kUnavailable = "NVRTC is not available: ";

template <class F>
bool resolve(void* library, const char* libraryName, const char* name, F& function, std::string& reason) {
    if (!resolveFunction(library, libraryName, name, function, reason)) {
        reason = kUnavailable + reason;
        return false;
    }
    return true;
}

}  // namespace

std::vector<std::string> nvrtcOptions(int computeCapability) {
    // sm_XY (not compute_XY) makes NVRTC produce a CUBIN for exactly this architecture.
    return {"--gpu-architecture=sm_" + std::to_string(computeCapability), "--std=c++17",
            "--device-as-default-execution-space"};
}

Nvrtc::Nvrtc(void* library, std::unique_ptr<Functions> functions, std::string version,
             std::vector<int> architectures)
    : _library(library),
      _functions(std::move(functions)),
      _version(std::move(version)),
      _architectures(std::move(architectures)) {}

bool Nvrtc::supportsArchitecture(int computeCapability) const {
    return std::find(_architectures.begin(), _architectures.end(), computeCapability) != _architectures.end();
}

Nvrtc::~Nvrtc() {
    dlclose(_library);
}

std::unique_ptr<Nvrtc> Nvrtc::load(const char* libraryName, std::string& reason) {
    void* library = openLibrary(libraryName, reason);
    if (library == nullptr) {
        reason = kUnavailable + reason;
        return nullptr;
    }
    auto functions = std::make_unique<Functions>();
    Functions& f = *functions;
    if (!resolve(library, libraryName, "nvrtcGetErrorString", f.getErrorString, reason) ||
        !resolve(library, libraryName, "nvrtcVersion", f.version, reason) ||
        !resolve(library, libraryName, "nvrtcCreateProgram", f.createProgram, reason) ||
        !resolve(library, libraryName, "nvrtcDestroyProgram", f.destroyProgram, reason) ||
        !resolve(library, libraryName, "nvrtcCompileProgram", f.compileProgram, reason) ||
        !resolve(library, libraryName, "nvrtcGetProgramLogSize", f.getProgramLogSize, reason) ||
        !resolve(library, libraryName, "nvrtcGetProgramLog", f.getProgramLog, reason) ||
        !resolve(library, libraryName, "nvrtcGetCUBINSize", f.getCubinSize, reason) ||
        !resolve(library, libraryName, "nvrtcGetCUBIN", f.getCubin, reason) ||
        !resolve(library, libraryName, "nvrtcGetNumSupportedArchs", f.getNumSupportedArchs, reason) ||
        !resolve(library, libraryName, "nvrtcGetSupportedArchs", f.getSupportedArchs, reason)) {
        dlclose(library);
        return nullptr;
    }
    int major = 0;
    int minor = 0;
    if (f.version(&major, &minor) != NVRTC_SUCCESS) {
        reason = std::string(libraryName) + ": nvrtcVersion failed";
        dlclose(library);
        return nullptr;
    }
    int count = 0;
    std::vector<int> architectures;
    if (f.getNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
        architectures.resize(static_cast<size_t>(count));
        if (f.getSupportedArchs(architectures.data()) != NVRTC_SUCCESS) {
            architectures.clear();
        }
    }
    return std::unique_ptr<Nvrtc>(new Nvrtc(library, std::move(functions),
                                            std::to_string(major) + "." + std::to_string(minor),
                                            std::move(architectures)));
}

const Nvrtc* Nvrtc::instance(std::string& reason) {
    return loadOnce<Nvrtc>(kNvrtcLibraryName, nullptr, reason);
}

CompileResult Nvrtc::compileToCubin(const std::string& source, const std::string& programName,
                                    int computeCapability) const {
    const Functions& f = *_functions;
    CompileResult result;
    const auto fail = [&](const char* call, nvrtcResult status) {
        result.error = std::string(call) + " failed: " + f.getErrorString(status);
    };
    nvrtcProgram program = nullptr;
    if (const nvrtcResult status =
            f.createProgram(&program, source.c_str(), programName.c_str(), 0, nullptr, nullptr);
        status != NVRTC_SUCCESS) {
        fail("nvrtcCreateProgram", status);
        return result;
    }
    const std::vector<std::string> options = nvrtcOptions(computeCapability);
    std::vector<const char*> optionPointers;
    for (const std::string& option : options) {
        optionPointers.push_back(option.c_str());
    }
    const nvrtcResult compiled =
        f.compileProgram(program, static_cast<int>(optionPointers.size()), optionPointers.data());
    if (compiled != NVRTC_SUCCESS) {
        size_t logSize = 0;
        std::string log;
        if (f.getProgramLogSize(program, &logSize) == NVRTC_SUCCESS && logSize > 1) {
            log.resize(logSize);
            f.getProgramLog(program, log.data());
            log.resize(logSize - 1);
        }
        fail("nvrtcCompileProgram", compiled);
        result.error += " (" + options.front() + "): " + log;
    } else {
        size_t cubinSize = 0;
        if (const nvrtcResult status = f.getCubinSize(program, &cubinSize); status != NVRTC_SUCCESS) {
            fail("nvrtcGetCUBINSize", status);
        } else {
            result.cubin.resize(cubinSize);
            if (const nvrtcResult got = f.getCubin(program, reinterpret_cast<char*>(result.cubin.data()));
                got != NVRTC_SUCCESS) {
                fail("nvrtcGetCUBIN", got);
                result.cubin.clear();
            }
        }
    }
    f.destroyProgram(&program);
    return result;
}

}  // namespace hipdnn_cuda_kernels
