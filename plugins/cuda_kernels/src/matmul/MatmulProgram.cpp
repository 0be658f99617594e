#include "MatmulProgram.hpp"

#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace hipdnn_cuda_kernels {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;

namespace {

using Tensor = fb::TensorAttributes;
using hipdnn_data_sdk::utilities::formatDims;
using hipdnn_flatbuffers_sdk::NodeWrapper;

std::vector<int64_t> dimsOf(const Tensor& tensor) {
    return {tensor.dims()->begin(), tensor.dims()->end()};
}

// The last two dims of a tensor: rows × columns and their strides.
struct MatrixView {
    int64_t rows = 0;
    int64_t columns = 0;
    int64_t rowStride = 0;
    int64_t columnStride = 0;

    MatrixView transposed() const { return {columns, rows, columnStride, rowStride}; }
};

// A column-major layout of `view` itself, or where `allowTranspose`, of its transpose (the
// product then takes op = T). A dim of extent 1 never moves, so its stride does not matter.
std::optional<MatmulOperand> columnMajor(const MatrixView& view, bool allowTranspose) {
    const auto layout = [](const MatrixView& v) -> std::optional<std::pair<int64_t, int64_t>> {
        if (v.rows > 1 && v.rowStride != 1) {
            return std::nullopt;
        }
        const int64_t leading = v.columns > 1 ? v.columnStride : std::max<int64_t>(1, v.rows);
        if (leading < std::max<int64_t>(1, v.rows)) {
            return std::nullopt;
        }
        return std::pair{v.rows, leading};
    };
    MatmulOperand operand;
    if (const auto direct = layout(view)) {
        operand.rows = view.rows;
        operand.columns = view.columns;
        operand.leadingDimension = direct->second;
        return operand;
    }
    if (allowTranspose) {
        if (const auto stored = layout(view.transposed())) {
            operand.rows = view.columns;
            operand.columns = view.rows;
            operand.leadingDimension = stored->second;
            operand.transposed = true;
            return operand;
        }
    }
    return std::nullopt;
}

class MatmulAnalysis {
public:
    MatmulAnalysis(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, std::string& reason)
        : _graph(graph), _reason(reason) {}

    std::optional<MatmulProgram> run() {
        if (!findMatmul() || !readEpilogue() || !readTypes() || !readShapes() || !layOut()) {
            return std::nullopt;
        }
        return std::move(_program);
    }

    // The matmul node `index` alone, its output written to memory whether virtual or not.
    std::optional<MatmulProgram> runNode(size_t index) {
        if (!readMatmul(index)) {
            return std::nullopt;
        }
        _output = _c;
        if (!readTypes() || !readShapes() || !layOut()) {
            return std::nullopt;
        }
        return std::move(_program);
    }

private:
    bool decline(std::string why) {
        _reason = std::move(why);
        return false;
    }

    bool computesInFloat(const NodeWrapper& node) {
        fb::DataType compute = node.node().compute_data_type();
        if (compute == fb::DataType::UNSET) {
            compute = _graph.graph().compute_data_type();
        }
        return compute == fb::DataType::FLOAT || compute == fb::DataType::UNSET ||
               decline(node.describe() + " has compute data type " + fb::EnumNameDataType(compute) +
                       "; cuBLASLt computes in FLOAT (fp32 accumulation and scale)");
    }

    bool findMatmul() {
        for (size_t i = 0; i < _graph.nodeCount(); ++i) {
            const NodeWrapper node = _graph.node(i);
            if (node.type() == fb::NodeAttributes::PointwiseAttributes) {
                if (!_matmulIndex) {
                    return decline(
                        node.describe() +
                        " comes before the matmul; only a bias add and an activation after it are fused");
                }
                continue;
            }
            if (node.type() != fb::NodeAttributes::MatmulAttributes) {
                return decline(node.describe() + " is not a matmul or a pointwise epilogue node");
            }
            if (_matmulIndex) {
                return decline("the graph has two matmul nodes (" + _graph.node(*_matmulIndex).describe() +
                               ", " + node.describe() + "); the engine runs one");
            }
            _matmulIndex = i;
        }
        if (!_matmulIndex) {
            return decline("the graph has no matmul node");
        }
        return readMatmul(*_matmulIndex);
    }

    bool readMatmul(size_t index) {
        const NodeWrapper matmul = _graph.node(index);
        if (matmul.type() != fb::NodeAttributes::MatmulAttributes) {
            return decline(matmul.describe() + " is not a matmul");
        }
        _matmulIndex = index;
        const auto& attributes = *matmul.attributesAs<fb::MatmulAttributes>();
        _a = attributes.a_tensor_uid();
        _b = attributes.b_tensor_uid();
        _c = attributes.c_tensor_uid();
        return computesInFloat(matmul);
    }

    // The pointwise nodes after the matmul, each reading the previous one's output: a bias ADD,
    // then RELU_FWD or GELU_APPROX_TANH_FWD.
    bool readEpilogue() {
        _output = _c;
        for (size_t i = *_matmulIndex + 1; i < _graph.nodeCount(); ++i) {
            const NodeWrapper node = _graph.node(i);
            const auto& a = *node.attributesAs<fb::PointwiseAttributes>();
            const Tensor& previous = _graph.tensor(_output);
            if (!previous.virtual_()) {
                return decline(describeTensor(previous) + " is written to memory before " + node.describe() +
                               "; cuBLASLt writes only the epilogue's final output");
            }
            if (!computesInFloat(node)) {
                return false;
            }
            const fb::PointwiseMode mode = a.operation();
            const std::string modeName = fb::EnumNamePointwiseMode(mode);
            const bool readsPrevious = a.in_0_tensor_uid() == _output ||
                                       (a.in_1_tensor_uid().has_value() && *a.in_1_tensor_uid() == _output);
            if (!readsPrevious) {
                return decline(node.describe() + " does not read " + describeTensor(previous) +
                               "; the epilogue must be one chain after the matmul");
            }
            const Tensor& result = _graph.tensor(a.out_0_tensor_uid());
            if (dimsOf(result) != dimsOf(_graph.tensor(_c))) {
                return decline(describeTensor(result) + " has dims " + formatDims(dimsOf(result)) +
                               ", not the matmul's " + formatDims(dimsOf(_graph.tensor(_c))));
            }
            if (mode == fb::PointwiseMode::ADD) {
                if (!readBias(node, a)) {
                    return false;
                }
            } else if (mode == fb::PointwiseMode::RELU_FWD ||
                       mode == fb::PointwiseMode::GELU_APPROX_TANH_FWD) {
                if (a.in_0_tensor_uid() != _output) {
                    return decline(node.describe() + " (" + modeName + ") reads " + describeTensor(previous) +
                                   " as in_1, not in_0");
                }
                if (_program.activation != MatmulActivation::None) {
                    return decline(node.describe() + " (" + modeName +
                                   ") follows another activation; cuBLASLt applies one");
                }
                if (mode == fb::PointwiseMode::RELU_FWD &&
                    (a.relu_lower_clip().value_or(0.0F) != 0.0F ||
                     a.relu_lower_clip_slope().value_or(0.0F) != 0.0F ||
                     !std::isinf(a.relu_upper_clip().value_or(std::numeric_limits<float>::infinity())))) {
                    return decline(
                        node.describe() + " is a clipped or leaky relu (relu_lower_clip " +
                        std::to_string(a.relu_lower_clip().value_or(0.0F)) + ", relu_upper_clip " +
                        std::to_string(a.relu_upper_clip().value_or(std::numeric_limits<float>::infinity())) +
                        ", relu_lower_clip_slope " +
                        std::to_string(a.relu_lower_clip_slope().value_or(0.0F)) +
                        "); cuBLASLt's relu epilogue is max(x, 0)");
                }
                _program.activation =
                    mode == fb::PointwiseMode::RELU_FWD ? MatmulActivation::Relu : MatmulActivation::GeluTanh;
            } else if (mode == fb::PointwiseMode::GELU_FWD) {
                return decline(node.describe() +
                               " is GELU_FWD (the erf form); cuBLASLt's gelu epilogue is the tanh "
                               "approximation (GELU_APPROX_TANH_FWD)");
            } else {
                return decline(
                    node.describe() + " has mode " + modeName +
                    "; the cuBLASLt epilogue fuses ADD (a bias), then RELU_FWD or GELU_APPROX_TANH_FWD");
            }
            _output = a.out_0_tensor_uid();
        }
        if (_graph.tensor(_output).virtual_()) {
            return decline(describeTensor(_graph.tensor(_output)) + ", the graph's last result, is virtual");
        }
        return true;
    }

    bool readBias(const NodeWrapper& node, const fb::PointwiseAttributes& a) {
        if (_program.activation != MatmulActivation::None) {
            return decline(node.describe() + " adds after the activation; cuBLASLt adds the bias before it");
        }
        if (_bias) {
            return decline(node.describe() + " is a second ADD; cuBLASLt adds one bias");
        }
        if (!a.in_1_tensor_uid().has_value()) {
            return decline(node.describe() + " (ADD) has no in_1");
        }
        const int64_t bias = a.in_0_tensor_uid() == _output ? *a.in_1_tensor_uid() : a.in_0_tensor_uid();
        const Tensor& tensor = _graph.tensor(bias);
        if (bias == _output) {
            return decline(node.describe() + " adds the matmul's result to itself");
        }
        if (tensor.value_type() != fb::TensorValue::NONE) {
            return decline(describeTensor(tensor) +
                           " is a pass-by-value scalar; cuBLASLt's bias is a vector in device memory");
        }
        if (tensor.virtual_()) {
            return decline(describeTensor(tensor) + ", the bias, is virtual");
        }
        _bias = bias;
        return true;
    }

    std::optional<ElementType> typeOf(int64_t uid) {
        const Tensor& tensor = _graph.tensor(uid);
        const fb::DataType type = effectiveType(_graph, tensor);
        const auto element = elementTypeOf(type);
        if (!element) {
            decline(describeTensor(tensor) + " has data type " + fb::EnumNameDataType(type) +
                    "; supported: FLOAT, HALF, BFLOAT16");
        }
        return element;
    }

    std::string typeName(int64_t uid) const {
        return fb::EnumNameDataType(effectiveType(_graph, _graph.tensor(uid)));
    }

    // cuBLASLt with fp32 compute and scale takes A and B of one type and D of that type or FLOAT.
    bool readTypes() {
        const auto a = typeOf(_a);
        if (!a) {
            return false;
        }
        const auto b = typeOf(_b);
        if (!b) {
            return false;
        }
        const auto d = typeOf(_output);
        if (!d) {
            return false;
        }
        if (*a != *b) {
            return decline(describeTensor(_graph.tensor(_a)) + " is " + typeName(_a) + " and " +
                           describeTensor(_graph.tensor(_b)) + " is " + typeName(_b) +
                           "; cuBLASLt takes A and B of one type");
        }
        if (*d != *a && *d != ElementType::Float) {
            return decline(describeTensor(_graph.tensor(_output)) + " is " + typeName(_output) + " with " +
                           typeName(_a) + " inputs; the output must be FLOAT or the inputs' type");
        }
        _program.a.type = *a;
        _program.b.type = *b;
        _program.d.type = *d;
        if (_bias) {
            const auto bias = typeOf(*_bias);
            if (!bias) {
                return false;
            }
            if (*bias != *d) {
                return decline(describeTensor(_graph.tensor(*_bias)) + " is " + typeName(*_bias) +
                               "; cuBLASLt's bias has the output's type, " + typeName(_output));
            }
            _program.bias = MatmulBias{*_bias, *bias, 0};
        }
        return true;
    }

    // Dims and strides of `uid`, left-padded with extent 1 (stride 0) to `rank`.
    bool shapeOf(int64_t uid, size_t rank, std::vector<int64_t>& dims, std::vector<int64_t>& strides) {
        const Tensor& tensor = _graph.tensor(uid);
        const size_t own = tensor.dims()->size();
        if (own > rank || tensor.strides()->size() != own) {
            return decline(describeTensor(tensor) + " has rank " + std::to_string(own) +
                           "; the matmul's is " + std::to_string(rank));
        }
        dims.assign(rank - own, 1);
        strides.assign(rank - own, 0);
        dims.insert(dims.end(), tensor.dims()->begin(), tensor.dims()->end());
        strides.insert(strides.end(), tensor.strides()->begin(), tensor.strides()->end());
        for (size_t i = 0; i < rank; ++i) {
            if (dims[i] < 1 || strides[i] < 0) {
                return decline(describeTensor(tensor) + " has dims " + formatDims(dims) + " and strides " +
                               formatDims(strides) +
                               "; every dim must be at least 1 and every stride at least 0");
            }
        }
        return true;
    }

    bool readShapes() {
        _rank = _graph.tensor(_c).dims()->size();
        if (_rank < 2) {
            return decline(describeTensor(_graph.tensor(_c)) + " has rank " + std::to_string(_rank) +
                           "; matmul tensors need rank >= 2");
        }
        for (const int64_t uid : {_a, _b, _output}) {
            if (_graph.tensor(uid).dims()->size() != _rank) {
                return decline(describeTensor(_graph.tensor(uid)) + " has rank " +
                               std::to_string(_graph.tensor(uid).dims()->size()) + "; the matmul's is " +
                               std::to_string(_rank));
            }
        }
        if (!shapeOf(_a, _rank, _aDims, _aStrides) || !shapeOf(_b, _rank, _bDims, _bStrides) ||
            !shapeOf(_output, _rank, _dDims, _dStrides)) {
            return false;
        }
        const size_t r = _rank;
        _m = _aDims[r - 2];
        _k = _aDims[r - 1];
        _n = _bDims[r - 1];
        if (_bDims[r - 2] != _k) {
            return decline(describeTensor(_graph.tensor(_b)) + " has K = " + std::to_string(_bDims[r - 2]) +
                           " but a has K = " + std::to_string(_k));
        }
        if (_dDims[r - 2] != _m || _dDims[r - 1] != _n) {
            return decline(describeTensor(_graph.tensor(_output)) + " has dims " + formatDims(_dDims) +
                           " but M x N is " + std::to_string(_m) + " x " + std::to_string(_n));
        }
        _batchDims.assign(_dDims.begin(), _dDims.end() - 2);
        for (const int64_t extent : _batchDims) {
            _program.batchCount *= extent;
        }
        if (_program.batchCount > std::numeric_limits<int32_t>::max()) {
            return decline(describeTensor(_graph.tensor(_output)) + " has " +
                           std::to_string(_program.batchCount) + " batches; cuBLASLt takes at most " +
                           std::to_string(std::numeric_limits<int32_t>::max()));
        }
        return true;
    }

    // The one stride that walks the batch dims of a tensor in the order of the output's batch
    // index: 0 where every batch dim broadcasts (extent 1 or stride 0).
    std::optional<int64_t> batchStride(int64_t uid, const std::vector<int64_t>& dims,
                                       const std::vector<int64_t>& strides) {
        std::vector<std::pair<int64_t, int64_t>> moving;  // (extent, stride), outermost first
        bool broadcasts = false;
        for (size_t i = 0; i < _batchDims.size(); ++i) {
            if (_batchDims[i] == 1) {
                continue;
            }
            if (dims[i] != _batchDims[i] && dims[i] != 1) {
                decline(describeTensor(_graph.tensor(uid)) + " has batch dim " + std::to_string(i) + " = " +
                        std::to_string(dims[i]) + " against the output's " + std::to_string(_batchDims[i]) +
                        "; only an equal extent or 1 (broadcast) is supported");
                return std::nullopt;
            }
            const int64_t stride = dims[i] == 1 ? 0 : strides[i];
            broadcasts = broadcasts || stride == 0;
            moving.emplace_back(_batchDims[i], stride);
        }
        const bool allBroadcast =
            std::all_of(moving.begin(), moving.end(), [](const auto& dim) { return dim.second == 0; });
        if (allBroadcast) {
            return 0;
        }
        bool collapses = !broadcasts;
        for (size_t i = 0; collapses && i + 1 < moving.size(); ++i) {
            collapses = moving[i].second == moving[i + 1].second * moving[i + 1].first;
        }
        if (!collapses) {
            decline(describeTensor(_graph.tensor(uid)) + " has batch dims " +
                    formatDims({dims.begin(), dims.end() - 2}) + " with strides " +
                    formatDims({strides.begin(), strides.end() - 2}) +
                    ", which do not collapse into one strided batch over the output's batch dims " +
                    formatDims(_batchDims));
            return std::nullopt;
        }
        return moving.back().second;
    }

    std::string describeMatrix(int64_t uid, const std::vector<int64_t>& dims,
                               const std::vector<int64_t>& strides) {
        return describeTensor(_graph.tensor(uid)) + " has strides " +
               formatDims({strides.end() - 2, strides.end()}) + " on its last two dims " +
               formatDims({dims.end() - 2, dims.end()});
    }

    // Whether a bias of `dims` / `strides` (padded to the matmul's rank) is one value per column
    // (along M: [..., 1, N]) or per row (along N: [..., M, 1]) of the graph's output, packed.
    bool readBiasShape(bool& alongM, bool& alongN) {
        const size_t r = _rank;
        std::vector<int64_t> dims;
        std::vector<int64_t> strides;
        if (!shapeOf(*_bias, r, dims, strides)) {
            return false;
        }
        alongM = (dims[r - 2] == 1 || _m == 1) && dims[r - 1] == _n && (_n == 1 || strides[r - 1] == 1);
        alongN = (dims[r - 1] == 1 || _n == 1) && dims[r - 2] == _m && (_m == 1 || strides[r - 2] == 1);
        if (!alongM && !alongN) {
            return decline(describeTensor(_graph.tensor(*_bias)) + " has dims " + formatDims(dims) +
                           " and strides " + formatDims(strides) +
                           "; cuBLASLt adds a packed vector broadcast along M ([..., 1, " +
                           std::to_string(_n) + "]) or along N ([..., " + std::to_string(_m) + ", 1])");
        }
        const auto stride = batchStride(*_bias, dims, strides);
        if (!stride) {
            return false;
        }
        _program.bias->batchStride = *stride;
        return true;
    }

    // A tensor in the role cuBLASLt gives it.
    struct Source {
        int64_t uid = 0;
        MatrixView view;
        int64_t batchStride = 0;
        const std::vector<int64_t>* dims = nullptr;
        const std::vector<int64_t>* strides = nullptr;
    };

    bool describeOperand(const Source& source, bool allowTranspose, MatmulOperand& operand) {
        const auto layout =
            columnMajor(_program.swapped ? source.view.transposed() : source.view, allowTranspose);
        if (!layout) {
            return decline(describeMatrix(source.uid, *source.dims, *source.strides) + "; cuBLASLt " +
                           (allowTranspose ? "reads" : "writes") +
                           " a row- or column-major matrix (stride 1 on one of them, the other at least its "
                           "extent)");
        }
        const ElementType type = operand.type;
        operand = *layout;
        operand.uid = source.uid;
        operand.type = type;
        operand.batchStride = source.batchStride;
        return true;
    }

    bool layOut() {
        const size_t r = _rank;
        const auto aStride = batchStride(_a, _aDims, _aStrides);
        const auto bStride = aStride ? batchStride(_b, _bDims, _bStrides) : std::nullopt;
        const auto dStride = bStride ? batchStride(_output, _dDims, _dStrides) : std::nullopt;
        if (!dStride) {
            return false;
        }
        bool biasAlongM = true;
        bool biasAlongN = true;
        if (_bias && !readBiasShape(biasAlongM, biasAlongN)) {
            return false;
        }
        const Source a{_a, {_m, _k, _aStrides[r - 2], _aStrides[r - 1]}, *aStride, &_aDims, &_aStrides};
        const Source b{_b, {_k, _n, _bStrides[r - 2], _bStrides[r - 1]}, *bStride, &_bDims, &_bStrides};
        const Source d{_output, {_m, _n, _dStrides[r - 2], _dStrides[r - 1]}, *dStride, &_dDims, &_dStrides};
        // A row-major output is written as cuBLASLt's D = C^T, whose rows (the bias's length) run
        // along N; a column-major one as D = C, rows along M.
        const bool rowMajor = columnMajor(d.view.transposed(), false).has_value();
        const bool columnMajorOutput = columnMajor(d.view, false).has_value();
        if (!rowMajor && !columnMajorOutput) {
            return describeOperand(d, false, _program.d);
        }
        _program.swapped = rowMajor && biasAlongM;
        if (!_program.swapped && !(columnMajorOutput && biasAlongN)) {
            return decline(describeTensor(_graph.tensor(*_bias)) + " broadcasts along " +
                           (biasAlongM ? "M" : "N") + ", which cuBLASLt adds only to a " +
                           (biasAlongM ? "row" : "column") + "-major output; " +
                           describeMatrix(_output, _dDims, _dStrides));
        }
        _program.k = _k;
        _program.m = _program.swapped ? _n : _m;
        _program.n = _program.swapped ? _m : _n;
        return describeOperand(_program.swapped ? b : a, true, _program.a) &&
               describeOperand(_program.swapped ? a : b, true, _program.b) &&
               describeOperand(d, false, _program.d);
    }

    const hipdnn_flatbuffers_sdk::GraphWrapper& _graph;
    std::string& _reason;
    MatmulProgram _program;
    std::optional<size_t> _matmulIndex;
    int64_t _a = 0;
    int64_t _b = 0;
    int64_t _c = 0;
    int64_t _output = 0;
    std::optional<int64_t> _bias;
    size_t _rank = 0;
    int64_t _m = 0;
    int64_t _n = 0;
    int64_t _k = 0;
    std::vector<int64_t> _aDims, _aStrides, _bDims, _bStrides, _dDims, _dStrides;
    std::vector<int64_t> _batchDims;
};

std::string typeName(ElementType type) {
    switch (type) {
        case ElementType::Half:
            return "HALF";
        case ElementType::BFloat16:
            return "BFLOAT16";
        case ElementType::Float:
            break;
    }
    return "FLOAT";
}

}  // namespace

std::string describeMatmul(const MatmulProgram& program) {
    std::string text = "m " + std::to_string(program.m) + ", n " + std::to_string(program.n) + ", k " +
                       std::to_string(program.k) + ", batch " + std::to_string(program.batchCount) + ", A " +
                       typeName(program.a.type) + (program.a.transposed ? " (T)" : "") + ", B " +
                       typeName(program.b.type) + (program.b.transposed ? " (T)" : "") + ", D " +
                       typeName(program.d.type);
    if (program.bias) {
        text += ", bias";
    }
    if (program.activation == MatmulActivation::Relu) {
        text += ", relu";
    } else if (program.activation == MatmulActivation::GeluTanh) {
        text += ", gelu (tanh)";
    }
    return text;
}

std::optional<MatmulProgram> analyzeMatmulGraph(const hipdnn_flatbuffers_sdk::GraphWrapper& graph,
                                                std::string& reason) {
    return MatmulAnalysis(graph, reason).run();
}

std::optional<MatmulProgram> analyzeMatmulNode(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, size_t node,
                                               std::string& reason) {
    return MatmulAnalysis(graph, reason).runNode(node);
}

}  // namespace hipdnn_cuda_kernels
