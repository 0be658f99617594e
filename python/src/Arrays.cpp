// DLPack arrays against graph tensors: element types, dims, strides and devices are checked before
// a pointer reaches the backend, so a mismatch is a hipdnn.Error naming the tensor, not a crash.
#include <sstream>
#include <vector>

#include "Binding.hpp"

namespace hipdnn_python {

namespace fe = hipdnn_frontend;
using nb::dlpack::dtype_code;

namespace {

struct ElementType {
    fe::DataType type;
    dtype_code code;
    uint8_t bits;
};

// FP8 arrays arrive as their 8-bit storage (NumPy has no FP8 type).
constexpr ElementType kElementTypes[] = {
    {fe::DataType::FLOAT, dtype_code::Float, 32},     {fe::DataType::HALF, dtype_code::Float, 16},
    {fe::DataType::BFLOAT16, dtype_code::Bfloat, 16}, {fe::DataType::DOUBLE, dtype_code::Float, 64},
    {fe::DataType::UINT8, dtype_code::UInt, 8},       {fe::DataType::INT8, dtype_code::Int, 8},
    {fe::DataType::INT32, dtype_code::Int, 32},       {fe::DataType::INT64, dtype_code::Int, 64},
    {fe::DataType::FP8_E4M3, dtype_code::UInt, 8},    {fe::DataType::FP8_E5M2, dtype_code::UInt, 8},
};

std::string formatList(const std::vector<int64_t>& values) {
    std::ostringstream text;
    text << "(";
    for (size_t index = 0; index < values.size(); ++index) {
        text << (index == 0 ? "" : ", ") << values[index];
    }
    text << ")";
    return text.str();
}

std::string tensorLabel(const fe::graph::TensorAttributes& tensor) {
    std::string label = "tensor '" + tensor.get_name() + "'";
    if (tensor.has_uid()) {
        label += " (uid " + std::to_string(tensor.get_uid()) + ")";
    }
    return label;
}

std::string arrayTypeName(const nb::dlpack::dtype& dtype) {
    const fe::DataType type = dataTypeOf(dtype);
    return type == fe::DataType::NOT_SET
               ? "DLPack code " + std::to_string(dtype.code) + " of " + std::to_string(dtype.bits) + " bits"
               : fe::to_string(type);
}

bool storageMatches(fe::DataType type, const nb::dlpack::dtype& dtype) {
    for (const auto& element : kElementTypes) {
        if (element.type == type && dtype.code == static_cast<uint8_t>(element.code) &&
            dtype.bits == element.bits && dtype.lanes == 1) {
            return true;
        }
    }
    return false;
}

// torch.Tensor and torch.utils.dlpack.to_dlpack, once torch is imported (this module never
// imports it). Never freed: they live as long as the interpreter's torch module.
struct TorchInterop {
    nb::object tensorType;
    nb::object toDlpack;
};

const TorchInterop* torchInterop() {
    static const TorchInterop* interop = nullptr;
    if (interop == nullptr && PyDict_GetItemString(PyImport_GetModuleDict(), "torch") != nullptr) {
        nb::module_ torch = nb::module_::import_("torch");
        interop = new TorchInterop{torch.attr("Tensor"),
                                   nb::module_::import_("torch.utils.dlpack").attr("to_dlpack")};
    }
    return interop;
}

}  // namespace

bool importArray(nb::handle value, nb::ndarray<>& array) {
    const TorchInterop* torch = torchInterop();
    if (torch != nullptr && nb::isinstance(value, torch->tensorType)) {
        if (nb::cast<bool>(value.attr("is_neg")())) {
            // A lazily negated view: its memory holds the values before negation.
            throwInvalidValue("a torch tensor with its negative bit set (call resolve_neg() first)");
        }
        return nb::try_cast(torch->toDlpack(value), array);
    }
    return nb::try_cast(value, array);
}

fe::DataType dataTypeOf(const nb::dlpack::dtype& dtype) {
    for (const auto& element : kElementTypes) {
        if (dtype.code == static_cast<uint8_t>(element.code) && dtype.bits == element.bits &&
            dtype.lanes == 1) {
            return element.type;
        }
    }
    return fe::DataType::NOT_SET;
}

void* checkedData(const fe::graph::TensorAttributes& tensor, const nb::ndarray<>& array,
                  const Device& device) {
    // Execute checks every array on every call: messages are built only when a check fails.
    const auto label = [&tensor] { return tensorLabel(tensor); };
    if (!storageMatches(tensor.get_data_type(), array.dtype())) {
        throwInvalidValue(label() + " is " + fe::to_string(tensor.get_data_type()) + " but the array is " +
                          arrayTypeName(array.dtype()));
    }
    const std::vector<int64_t>& dims = tensor.get_dim();
    const std::vector<int64_t>& tensorStrides = tensor.get_stride();
    const auto arrayList = [&array](auto extent) {
        std::vector<int64_t> values;
        for (size_t axis = 0; axis < array.ndim(); ++axis) {
            values.push_back(static_cast<int64_t>(extent(axis)));
        }
        return formatList(values);
    };
    if (tensorStrides.size() != dims.size()) {
        throwInvalidValue(label() + " has dims " + formatList(dims) + " but strides " +
                          formatList(tensorStrides));
    }
    bool shapeMatches = array.ndim() == dims.size();
    for (size_t axis = 0; shapeMatches && axis < dims.size(); ++axis) {
        shapeMatches = static_cast<int64_t>(array.shape(axis)) == dims[axis];
    }
    if (!shapeMatches) {
        throwInvalidValue(label() + " has dims " + formatList(dims) + " but the array has shape " +
                          arrayList([&array](size_t axis) { return array.shape(axis); }));
    }
    // Axes of extent 1 are never stepped over, so their strides do not matter (NumPy and torch
    // disagree on them).
    for (size_t axis = 0; axis < dims.size(); ++axis) {
        if (dims[axis] != 1 && array.stride(axis) != tensorStrides[axis]) {
            throwInvalidValue(
                label() + " has strides " + formatList(tensorStrides) + " but the array has strides " +
                arrayList([&array](size_t index) { return array.stride(index); }) + " (in elements)");
        }
    }
    const bool onCpu = array.device_type() == nb::device::cpu::value;
    const bool onCuda = array.device_type() == nb::device::cuda::value;
    if (device.type == HIPDNN_DEVICE_TYPE_CPU_EXT && !onCpu) {
        throwInvalidValue(label() + ": the handle is on the CPU but the array is on DLPack device " +
                          std::to_string(array.device_type()) + ":" + std::to_string(array.device_id()));
    }
    if (device.type == HIPDNN_DEVICE_TYPE_GPU_EXT && (!onCuda || array.device_id() != device.ordinal)) {
        throwInvalidValue(label() + ": the handle is on gpu:" + std::to_string(device.ordinal) +
                          " but the array is on " +
                          (onCuda ? "gpu:" + std::to_string(array.device_id())
                                  : "DLPack device " + std::to_string(array.device_type())));
    }
    if (array.data() == nullptr && tensor.get_volume() != 0) {
        throwInvalidValue(label() + ": the array has no data");
    }
    return array.data();
}

}  // namespace hipdnn_python
