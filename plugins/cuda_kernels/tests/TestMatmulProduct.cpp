// CUBLASLT_ENGINE's translation checked by arithmetic, without a GPU: every integration test graph
// is accepted, and the program run on the host with cuBLASLt's column-major semantics computes the
// graph's product.
#include "CublasLtSemantics.hpp"
#include "MatmulGraphs.hpp"
#include "PointwiseGraphs.hpp"

#include <matmul/MatmulProgram.hpp>

#include <hipdnn_test_sdk/Seed.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>

namespace cuda_kernels_test {
namespace {

using hipdnn_cuda_kernels::analyzeMatmulGraph;
using hipdnn_cuda_kernels::MatmulActivation;
using hipdnn_cuda_kernels::MatmulProgram;

// The integration tests' graphs are all ones the engine runs (a decline would fail them on a GPU).
TEST(MatmulProgram, EveryIntegrationGraphIsAccepted) {
    std::vector<MatmulCase> cases = matmulFullCases();
    for (const fb::DataType type : {fb::DataType::FLOAT, fb::DataType::HALF, fb::DataType::BFLOAT16}) {
        const std::vector<MatmulCase> smoke = matmulSmokeCases(type);
        cases.insert(cases.end(), smoke.begin(), smoke.end());
    }
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int i = 0; i < 500; ++i) {
        cases.push_back(randomMatmulCase(random));
    }
    for (const MatmulCase& matmul : cases) {
        SCOPED_TRACE(matmulCaseName(matmul));
        std::string reason;
        const auto program = analyzeMatmulGraph(wrap(matmulGraph(matmul)), reason);
        ASSERT_TRUE(program) << reason;
        EXPECT_EQ(program->d.uid, matmulOutputUid(matmul));
        EXPECT_EQ(program->k, matmul.k);
        EXPECT_EQ(program->bias.has_value(),
                  matmul.epilogue != MatmulEpilogue::None && matmul.epilogue != MatmulEpilogue::Relu);
    }
}

// A tensor of the graph filled with small integers (exact in float), addressed by its strides.
struct StoredTensor {
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    std::vector<float> values;

    StoredTensor(const hipdnn_flatbuffers_sdk::GraphWrapper& graph, int64_t uid, std::mt19937& random)
        : dims(graph.tensor(uid).dims()->begin(), graph.tensor(uid).dims()->end()),
          strides(graph.tensor(uid).strides()->begin(), graph.tensor(uid).strides()->end()) {
        int64_t storage = 1;
        for (size_t d = 0; d < dims.size(); ++d) {
            storage += (dims[d] - 1) * strides[d];
        }
        std::uniform_int_distribution<int> digit(-3, 3);
        values.resize(static_cast<size_t>(storage));
        for (float& value : values) {
            value = static_cast<float>(digit(random));
        }
    }

    // The element at `index` (aligned to the tensor's dims from the right; a dim of 1 broadcasts).
    float& at(const std::vector<int64_t>& index) {
        int64_t offset = 0;
        const size_t lead = index.size() - dims.size();
        for (size_t d = 0; d < dims.size(); ++d) {
            offset += (dims[d] == 1 ? 0 : index[d + lead]) * strides[d];
        }
        return values[static_cast<size_t>(offset)];
    }
};

// Small problems of every layout, batch and epilogue: the program run with cuBLASLt's semantics
// writes the row-major product of the graph into the output's memory.
TEST(MatmulProgram, TheProgramComputesTheGraphsProduct) {
    std::vector<MatmulCase> cases = matmulSmokeCases(fb::DataType::FLOAT);
    std::mt19937 random(hipdnn_test_sdk::globalTestSeed());
    for (int i = 0; i < 200; ++i) {
        cases.push_back(randomMatmulCase(random));
    }
    for (MatmulCase matmul : cases) {
        if (matmul.epilogue == MatmulEpilogue::BiasGelu) {
            matmul.epilogue = MatmulEpilogue::Bias;  // gelu's rounding is not the point here
        }
        // Small enough to multiply on the host; 1 and odd extents stay.
        matmul.m = std::min<int64_t>(matmul.m, 9);
        matmul.k = std::min<int64_t>(matmul.k, 11);
        matmul.n = std::min<int64_t>(matmul.n, 7);
        SCOPED_TRACE(matmulCaseName(matmul));
        const auto builder = matmulGraph(matmul);
        const std::vector<uint8_t> bytes = builder.build();
        const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
        std::string reason;
        const auto program = analyzeMatmulGraph(graph, reason);
        ASSERT_TRUE(program) << reason;
        StoredTensor a(graph, 1, random);
        StoredTensor b(graph, 2, random);
        StoredTensor out(graph, matmulOutputUid(matmul), random);
        std::optional<StoredTensor> bias;
        if (program->bias) {
            bias.emplace(graph, 4, random);
        }
        std::vector<float> written = out.values;
        const auto valuesOf = [&](int64_t uid) -> const std::vector<float>& {
            return uid == 1 ? a.values : b.values;
        };
        runAsCublasLt(*program, valuesOf(program->a.uid), valuesOf(program->b.uid),
                      bias ? &bias->values : nullptr, written);
        out.values = std::move(written);
        // The graph's product, index by index.
        std::vector<int64_t> index(out.dims.size(), 0);
        const size_t r = index.size();
        for (bool more = true; more;) {
            float sum = 0;
            std::vector<int64_t> aIndex = index;
            std::vector<int64_t> bIndex = index;
            for (int64_t p = 0; p < matmul.k; ++p) {
                aIndex[r - 1] = p;
                bIndex[r - 2] = p;
                sum += a.at(aIndex) * b.at(bIndex);
            }
            if (bias) {
                sum += bias->at(index);
            }
            if (matmul.epilogue == MatmulEpilogue::BiasRelu || matmul.epilogue == MatmulEpilogue::Relu) {
                sum = std::max(sum, 0.0F);
            }
            ASSERT_EQ(out.at(index), sum) << "at output index " << testing::PrintToString(index);
            more = false;
            for (size_t d = r; d-- > 0 && !more;) {
                more = ++index[d] < out.dims[d];
                if (!more) {
                    index[d] = 0;
                }
            }
        }
    }
}

}  // namespace
}  // namespace cuda_kernels_test
