// hipdnn._hipdnn: the enums, hipdnn.Error and the data type conversions; Handle and Graph are bound
// in their own files.
#include <array>
#include <string_view>
#include <utility>

#include <nanobind/stl/string.h>

#include "Binding.hpp"

namespace hipdnn_python {

namespace fe = hipdnn_frontend;

void throwIfBad(const fe::Error& error) {
    if (error.is_bad()) {
        throw BackendError(fe::to_string(error.get_code()), error.get_message());
    }
}

namespace {

const char* statusName(hipdnnStatus_t status) {
    switch (status) {
        case HIPDNN_STATUS_SUCCESS:
            return "HIPDNN_STATUS_SUCCESS";
        case HIPDNN_STATUS_NOT_INITIALIZED:
            return "HIPDNN_STATUS_NOT_INITIALIZED";
        case HIPDNN_STATUS_BAD_PARAM:
            return "HIPDNN_STATUS_BAD_PARAM";
        case HIPDNN_STATUS_BAD_PARAM_NULL_POINTER:
            return "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER";
        case HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED:
            return "HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED";
        case HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND:
            return "HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND";
        case HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT:
            return "HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT";
        case HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH:
            return "HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH";
        case HIPDNN_STATUS_NOT_SUPPORTED:
            return "HIPDNN_STATUS_NOT_SUPPORTED";
        case HIPDNN_STATUS_INTERNAL_ERROR:
            return "HIPDNN_STATUS_INTERNAL_ERROR";
        case HIPDNN_STATUS_ALLOC_FAILED:
            return "HIPDNN_STATUS_ALLOC_FAILED";
        case HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED:
            return "HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED";
        case HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED:
            return "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED";
        case HIPDNN_STATUS_EXECUTION_FAILED:
            return "HIPDNN_STATUS_EXECUTION_FAILED";
        case HIPDNN_STATUS_PLUGIN_ERROR:
            return "HIPDNN_STATUS_PLUGIN_ERROR";
    }
    return "HIPDNN_STATUS_UNKNOWN";
}

// Names that NumPy, torch and users give the element types (torch's without "torch.").
constexpr std::array<std::pair<std::string_view, fe::DataType>, 20> kDataTypeNames = {{
    {"float32", fe::DataType::FLOAT},
    {"float", fe::DataType::FLOAT},
    {"float16", fe::DataType::HALF},
    {"half", fe::DataType::HALF},
    {"bfloat16", fe::DataType::BFLOAT16},
    {"float64", fe::DataType::DOUBLE},
    {"double", fe::DataType::DOUBLE},
    {"uint8", fe::DataType::UINT8},
    {"int8", fe::DataType::INT8},
    {"int32", fe::DataType::INT32},
    {"int", fe::DataType::INT32},
    {"int64", fe::DataType::INT64},
    {"long", fe::DataType::INT64},
    {"float8_e4m3fn", fe::DataType::FP8_E4M3},
    {"float8_e4m3", fe::DataType::FP8_E4M3},
    {"fp8_e4m3", fe::DataType::FP8_E4M3},
    {"float8_e5m2", fe::DataType::FP8_E5M2},
    {"fp8_e5m2", fe::DataType::FP8_E5M2},
    {"fp32", fe::DataType::FLOAT},
    {"fp16", fe::DataType::HALF},
}};

std::string dtypeName(nb::handle object) {
    if (nb::isinstance<nb::str>(object)) {
        return nb::cast<std::string>(object);
    }
    std::string text = nb::cast<std::string>(nb::str(object));
    constexpr std::string_view torchPrefix = "torch.";
    if (text.rfind(torchPrefix, 0) == 0) {
        return text.substr(torchPrefix.size());
    }
    // NumPy scalar types and dtypes: numpy.dtype(x).name.
    try {
        return nb::cast<std::string>(nb::module_::import_("numpy").attr("dtype")(object).attr("name"));
    } catch (const nb::python_error&) {
        return text;
    }
}

}  // namespace

void throwIfBad(hipdnnStatus_t status, const std::string& what) {
    if (status == HIPDNN_STATUS_SUCCESS) {
        return;
    }
    std::array<char, HIPDNN_ERROR_STRING_MAX_LENGTH> message{};
    hipdnnGetLastErrorString(message.data(), message.size());
    throw BackendError(statusName(status), what + " failed: " + message.data());
}

void throwInvalidValue(const std::string& message) {
    throw BackendError(fe::to_string(fe::ErrorCode::INVALID_VALUE), message);
}

fe::DataType toDataType(nb::handle object) {
    if (nb::isinstance<fe::DataType>(object)) {
        return nb::cast<fe::DataType>(object);
    }
    const std::string name = dtypeName(object);
    for (const auto& [known, type] : kDataTypeNames) {
        if (name == known) {
            return type;
        }
    }
    throwInvalidValue("no hipdnn data type for " + nb::cast<std::string>(nb::repr(object)));
}

}  // namespace hipdnn_python

namespace {

using namespace hipdnn_python;
namespace fe = hipdnn_frontend;

void bindEnums(nb::module_& module) {
    nb::enum_<fe::DataType>(module, "data_type")
        .value("NOT_SET", fe::DataType::NOT_SET)
        .value("FLOAT", fe::DataType::FLOAT)
        .value("HALF", fe::DataType::HALF)
        .value("BFLOAT16", fe::DataType::BFLOAT16)
        .value("DOUBLE", fe::DataType::DOUBLE)
        .value("UINT8", fe::DataType::UINT8)
        .value("INT32", fe::DataType::INT32)
        .value("INT8", fe::DataType::INT8)
        .value("FP8_E4M3", fe::DataType::FP8_E4M3)
        .value("FP8_E5M2", fe::DataType::FP8_E5M2)
        .value("INT64", fe::DataType::INT64);

    auto pointwise = nb::enum_<fe::PointwiseMode>(module, "pointwise_mode");
    for (int32_t value = 1; value <= static_cast<int32_t>(fe::PointwiseMode::COS); ++value) {
        const auto mode = static_cast<fe::PointwiseMode>(value);
        pointwise.value(fe::to_string(mode), mode);
    }

    nb::enum_<fe::ReductionMode>(module, "reduction_mode")
        .value("ADD", fe::ReductionMode::ADD)
        .value("MUL", fe::ReductionMode::MUL)
        .value("MIN", fe::ReductionMode::MIN)
        .value("MAX", fe::ReductionMode::MAX)
        .value("AMAX", fe::ReductionMode::AMAX)
        .value("AVG", fe::ReductionMode::AVG)
        .value("NORM1", fe::ReductionMode::NORM1)
        .value("NORM2", fe::ReductionMode::NORM2)
        .value("MUL_NO_ZEROS", fe::ReductionMode::MUL_NO_ZEROS);
    nb::enum_<fe::ResampleMode>(module, "resample_mode")
        .value("MAXPOOL", fe::ResampleMode::MAXPOOL)
        .value("AVGPOOL_EXCLUDE_PADDING", fe::ResampleMode::AVGPOOL_EXCLUDE_PADDING)
        .value("AVGPOOL_INCLUDE_PADDING", fe::ResampleMode::AVGPOOL_INCLUDE_PADDING)
        .value("BILINEAR", fe::ResampleMode::BILINEAR)
        .value("NEAREST", fe::ResampleMode::NEAREST);
    nb::enum_<fe::PaddingMode>(module, "padding_mode")
        .value("NEG_INF_PAD", fe::PaddingMode::NEG_INF_PAD)
        .value("ZERO_PAD", fe::PaddingMode::ZERO_PAD)
        .value("EDGE_VAL_PAD", fe::PaddingMode::EDGE_VAL_PAD);
    nb::enum_<fe::NormFwdPhase>(module, "norm_forward_phase")
        .value("INFERENCE", fe::NormFwdPhase::INFERENCE)
        .value("TRAINING", fe::NormFwdPhase::TRAINING);
    nb::enum_<fe::DiagonalAlignment>(module, "diagonal_alignment")
        .value("TOP_LEFT", fe::DiagonalAlignment::TOP_LEFT)
        .value("BOTTOM_RIGHT", fe::DiagonalAlignment::BOTTOM_RIGHT);
    nb::enum_<fe::ConvolutionMode>(module, "convolution_mode")
        .value("CROSS_CORRELATION", fe::ConvolutionMode::CROSS_CORRELATION)
        .value("CONVOLUTION", fe::ConvolutionMode::CONVOLUTION);
    nb::enum_<fe::HeuristicMode>(module, "heur_mode")
        .value("INSTANT", fe::HeuristicMode::INSTANT)
        .value("A", fe::HeuristicMode::A)
        .value("B", fe::HeuristicMode::B)
        .value("FALLBACK", fe::HeuristicMode::FALLBACK);
    nb::enum_<fe::BuildPlanPolicy>(module, "build_plan_policy")
        .value("HEURISTICS_CHOICE", fe::BuildPlanPolicy::HEURISTICS_CHOICE)
        .value("ALL", fe::BuildPlanPolicy::ALL);
}

}  // namespace

NB_MODULE(_hipdnn, module) {
    module.doc() = "hipdnn: graph-based deep-learning primitives with engines from plugins";

    // Lives as long as the process: the translator may run during interpreter shutdown.
    static PyObject* errorType = PyErr_NewExceptionWithDoc(
        "hipdnn.Error", "A failed hipdnn call: .status names the error, .message is the backend's text.",
        PyExc_Exception, nullptr);
    module.attr("Error") = nb::handle(errorType);
    nb::register_exception_translator([](const std::exception_ptr& pointer, void*) {
        try {
            std::rethrow_exception(pointer);
        } catch (const BackendError& error) {
            nb::object instance = nb::handle(errorType)(error.what());
            instance.attr("status") = error.status();
            instance.attr("message") = error.message();
            PyErr_SetObject(errorType, instance.ptr());
        }
    });

    bindEnums(module);
    module.def("to_data_type", &toDataType, nb::arg("dtype"),
               "The hipdnn.data_type of a NumPy/torch dtype, a name, or a data_type.");
    module.def("backend_version", [] { return std::string(hipdnnVersionString_ext()); });
    bindHandle(module);
    bindGraph(module);
}
