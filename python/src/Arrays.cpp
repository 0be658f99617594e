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

}  // namespace

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
    const std::string label = tensorLabel(tensor);
    if (!storageMatches(tensor.get_data_type(), array.dtype())) {
        throwInvalidValue(label + " is " + fe::to_string(tensor.get_data_type()) + " but the array is " +
                          arrayTypeName(array.dtype()));
    }
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;
    for (size_t axis = 0; axis < array.ndim(); ++axis) {
        shape.push_back(static_cast<int64_t>(array.shape(axis)));
        strides.push_back(array.stride(axis));
    }
    if (tensor.get_stride().size() != tensor.get_dim().size()) {
        throwInvalidValue(label + " has dims " + formatList(tensor.get_dim()) + " but strides " +
                          formatList(tensor.get_stride()));
    }
    if (shape != tensor.get_dim()) {
        throwInvalidValue(label + " has dims " + formatList(tensor.get_dim()) + " but the array has shape " +
                          formatList(shape));
    }
    // Axes of extent 1 are never stepped over, so their strides do not matter (NumPy and torch
    // disagree on them).
    for (size_t axis = 0; axis < shape.size(); ++axis) {
        if (shape[axis] != 1 && strides[axis] != tensor.get_stride()[axis]) {
            throwInvalidValue(label + " has strides " + formatList(tensor.get_stride()) +
                              " but the array has strides " + formatList(strides) + " (in elements)");
        }
    }
    const bool onCpu = array.device_type() == nb::device::cpu::value;
    const bool onCuda = array.device_type() == nb::device::cuda::value;
    if (device.type == HIPDNN_DEVICE_TYPE_CPU_EXT && !onCpu) {
        throwInvalidValue(label + ": the handle is on the CPU but the array is on DLPack device " +
                          std::to_string(array.device_type()) + ":" + std::to_string(array.device_id()));
    }
    if (device.type == HIPDNN_DEVICE_TYPE_GPU_EXT && (!onCuda || array.device_id() != device.ordinal)) {
        throwInvalidValue(label + ": the handle is on gpu:" + std::to_string(device.ordinal) +
                          " but the array is on " +
                          (onCuda ? "gpu:" + std::to_string(array.device_id())
                                  : "DLPack device " + std::to_string(array.device_type())));
    }
    if (array.data() == nullptr && tensor.get_volume() != 0) {
        throwInvalidValue(label + ": the array has no data");
    }
    return array.data();
}

}  // namespace hipdnn_python
