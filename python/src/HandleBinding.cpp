// hipdnn.Handle, the engine listing and the plugin paths.
#include <cstdlib>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "Binding.hpp"

namespace hipdnn_python {

namespace {

Device parseDevice(const std::string& text) {
    if (text == "cpu") {
        return {HIPDNN_DEVICE_TYPE_CPU_EXT, 0};
    }
    if (text == "gpu" || text == "cuda") {
        return {HIPDNN_DEVICE_TYPE_GPU_EXT, 0};
    }
    for (const std::string prefix : {"gpu:", "cuda:"}) {
        if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size()) {
            char* end = nullptr;
            const long ordinal = std::strtol(text.c_str() + prefix.size(), &end, 10);
            if (*end == '\0' && ordinal >= 0) {
                return {HIPDNN_DEVICE_TYPE_GPU_EXT, static_cast<int>(ordinal)};
            }
        }
    }
    throwInvalidValue("device '" + text + "': expected 'cpu', 'gpu' or 'gpu:N'");
}

std::string deviceName(const Device& device) {
    return device.type == HIPDNN_DEVICE_TYPE_CPU_EXT ? "cpu" : "gpu:" + std::to_string(device.ordinal);
}

std::vector<std::string> loadedPluginPaths(const Handle& handle) {
    size_t count = 0;
    size_t maxLength = 0;
    throwIfBad(hipdnnGetLoadedEnginePluginPaths_ext(handle.get(), &count, nullptr, &maxLength),
               "hipdnnGetLoadedEnginePluginPaths_ext");
    std::vector<std::vector<char>> buffers(count, std::vector<char>(maxLength));
    std::vector<char*> pointers;
    for (auto& buffer : buffers) {
        pointers.push_back(buffer.data());
    }
    throwIfBad(hipdnnGetLoadedEnginePluginPaths_ext(handle.get(), &count, pointers.data(), &maxLength),
               "hipdnnGetLoadedEnginePluginPaths_ext");
    std::vector<std::string> paths;
    for (size_t index = 0; index < count; ++index) {
        paths.emplace_back(buffers[index].data());
    }
    return paths;
}

struct EngineInfo {
    int64_t id = 0;
    std::string name;
    std::string plugin_name;
    std::string plugin_path;
};

std::vector<EngineInfo> engines(const Handle& handle) {
    size_t count = 0;
    throwIfBad(hipdnnGetEngineCount_ext(handle.get(), &count), "hipdnnGetEngineCount_ext");
    std::vector<EngineInfo> result;
    for (size_t index = 0; index < count; ++index) {
        size_t nameLength = 0;
        size_t pluginNameLength = 0;
        size_t pluginPathLength = 0;
        EngineInfo info;
        throwIfBad(hipdnnGetEngineInfo_ext(handle.get(), index, &info.id, nullptr, &nameLength, nullptr,
                                           &pluginNameLength, nullptr, &pluginPathLength),
                   "hipdnnGetEngineInfo_ext");
        std::vector<char> name(nameLength);
        std::vector<char> pluginName(pluginNameLength);
        std::vector<char> pluginPath(pluginPathLength);
        throwIfBad(hipdnnGetEngineInfo_ext(handle.get(), index, &info.id, name.data(), &nameLength,
                                           pluginName.data(), &pluginNameLength, pluginPath.data(),
                                           &pluginPathLength),
                   "hipdnnGetEngineInfo_ext");
        info.name = name.data();
        info.plugin_name = pluginName.data();
        info.plugin_path = pluginPath.data();
        result.push_back(std::move(info));
    }
    return result;
}

void setPluginPaths(const std::vector<std::string>& paths, const std::string& mode) {
    if (mode != "additive" && mode != "absolute") {
        throwInvalidValue("plugin loading mode '" + mode + "': expected 'additive' or 'absolute'");
    }
    std::vector<const char*> pointers;
    for (const auto& path : paths) {
        pointers.push_back(path.c_str());
    }
    throwIfBad(hipdnnSetEnginePluginPaths_ext(
                   pointers.size(), pointers.data(),
                   mode == "additive" ? HIPDNN_PLUGIN_LOADING_ADDITIVE : HIPDNN_PLUGIN_LOADING_ABSOLUTE),
               "hipdnnSetEnginePluginPaths_ext");
}

// One NCCL communicator per handle over their GPUs (ncclCommInitAll), handles[i] being rank i.
void createCommunicators(const std::vector<const Handle*>& handles) {
    std::vector<hipdnnHandle_t> raw;
    for (const Handle* handle : handles) {
        if (handle == nullptr) {
            throwInvalidValue("create_communicators: a handle is None");
        }
        raw.push_back(handle->get());
    }
    throwIfBad(hipdnnCreateCommunicators_ext(raw.size(), raw.data()), "hipdnnCreateCommunicators_ext");
}

}  // namespace

Handle::Handle(const std::optional<std::string>& device) {
    if (!device) {
        throwIfBad(hipdnnCreate(&handle_), "hipdnnCreate");
        throwIfBad(hipdnnGetDevice_ext(handle_, &device_.type, &device_.ordinal), "hipdnnGetDevice_ext");
        return;
    }
    device_ = parseDevice(*device);
    throwIfBad(hipdnnCreateForDevice_ext(&handle_, device_.type, device_.ordinal),
               "hipdnnCreateForDevice_ext(" + deviceName(device_) + ")");
}

Handle::~Handle() {
    close();
}

hipdnnHandle_t Handle::get() const {
    if (handle_ == nullptr) {
        throw BackendError("INVALID_STATE", "the handle on " + deviceName(device_) + " is closed");
    }
    return handle_;
}

void Handle::close() {
    if (handle_ != nullptr) {
        hipdnnDestroy(handle_);
        handle_ = nullptr;
    }
}

void Handle::setStream(uintptr_t stream) {
    if (stream_ != stream) {
        throwIfBad(hipdnnSetStream(get(), reinterpret_cast<hipdnnStream_t>(stream)), "hipdnnSetStream");
        stream_ = stream;
    }
}

void Handle::followTorchStream() {
    if (!torchLookedUp_) {
        torchLookedUp_ = true;
        nb::object torch;
        try {
            torch = nb::module_::import_("torch");
        } catch (const nb::python_error&) {
            return;
        }
        // The raw form (what torch.compile's generated code calls) skips building a
        // torch.cuda.Stream per call; older torch has only the public one.
        nb::object cudaModule = torch.attr("_C");
        if (nb::hasattr(cudaModule, "_cuda_getCurrentRawStream")) {
            torchCurrentStream_ = cudaModule.attr("_cuda_getCurrentRawStream");
        } else {
            nb::object currentStream = torch.attr("cuda").attr("current_stream");
            torchCurrentStream_ = nb::cpp_function(
                [currentStream](int ordinal) { return currentStream(ordinal).attr("cuda_stream"); });
        }
    }
    if (torchCurrentStream_.is_valid()) {
        setStream(nb::cast<uintptr_t>(torchCurrentStream_(device_.ordinal)));
    }
}

void bindHandle(nb::module_& module) {
    nb::class_<Handle>(module, "Handle")
        .def(nb::init<const std::optional<std::string>&>(), nb::arg("device") = nb::none(),
             "A backend handle bound to 'cpu', 'gpu' (GPU 0) or 'gpu:N' (default: GPU 0 when one is "
             "usable, else the CPU; HIPDNN_DEVICE overrides); loads the plugins for it.")
        .def_prop_ro("device", [](const Handle& handle) { return deviceName(handle.device()); })
        .def_prop_ro("closed", &Handle::closed)
        .def("close", &Handle::close, "Destroys the backend handle; later use raises hipdnn.Error.")
        .def(
            "__enter__", [](Handle& handle) -> Handle& { return handle; }, nb::rv_policy::reference)
        .def("__exit__", [](Handle& handle, nb::args) { handle.close(); })
        .def("plugin_paths", &loadedPluginPaths, "Paths of the engine plugins this handle loaded.")
        .def(
            "set_stream", [](Handle& handle, uintptr_t stream) { handle.setStream(stream); },
            nb::arg("stream"),
            "The cudaStream_t (as an integer) GPU plans run on when torch does not give one; CPU "
            "handles ignore it.")
        .def(
            "set_communicator",
            [](Handle& handle, uintptr_t communicator) {
                throwIfBad(hipdnnSetCommunicator_ext(handle.get(), reinterpret_cast<void*>(communicator)),
                           "hipdnnSetCommunicator_ext");
            },
            nb::arg("communicator"),
            "Attaches an NCCL communicator (an ncclComm_t as an integer, e.g. cupy's "
            "NcclCommunicator.ptr; 0 detaches) whose device is this GPU handle's: batch norms with "
            "peer_stats sum their statistics across its GPUs. Keep it alive while the handle and "
            "its plans are in use.")
        .def("__repr__", [](const Handle& handle) {
            return "hipdnn.Handle(device='" + deviceName(handle.device()) + "'" +
                   (handle.closed() ? ", closed)" : ")");
        });

    nb::class_<EngineInfo>(module, "EngineInfo")
        .def_ro("id", &EngineInfo::id)
        .def_ro("name", &EngineInfo::name)
        .def_ro("plugin_name", &EngineInfo::plugin_name)
        .def_ro("plugin_path", &EngineInfo::plugin_path)
        .def("__repr__", [](const EngineInfo& info) {
            return "EngineInfo(name='" + info.name + "', plugin='" + info.plugin_name + "')";
        });
    module.def("engines", &engines, nb::arg("handle"),
               "The engines of the plugins serving the handle's device, sorted by name.");
    module.def("create_communicators", &createCommunicators, nb::arg("handles"),
               "Makes one NCCL communicator per GPU handle (rank i for handles[i], ncclCommInitAll) and "
               "attaches each to its handle, which owns it.");
    module.def("set_plugin_paths", &setPluginPaths, nb::arg("paths"), nb::arg("mode") = "additive",
               "Plugin directories or .so files for the next handles ('additive' or 'absolute').");
}

}  // namespace hipdnn_python
