// Times graphs through the full hipdnn stack on the GPU: backend C API, GPU handle, the cuDNN
// plugin. Each problem is planned once; timing is the median over repeats of CUDA-event-timed
// batches of executes after a warm-up. Prints one line per problem:
//   BENCH impl=hipdnn problem=<name> dtype=<t> layout=NHWC op=<fprop|dgrad|wgrad|...> ms=<median> tflops=<x>
// and, for the small 3x3 conv, the host time per execute call from a built plan:
//   HOSTCALL impl=hipdnn problem=<name> us_per_call=<x>
#include <hipdnn_flatbuffers_sdk/GraphWrapper.hpp>
#include <hipdnn_test_sdk/BackendRun.hpp>
#include <hipdnn_test_sdk/DeviceTensor.hpp>
#include <hipdnn_test_sdk/GraphBuilder.hpp>

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_data_sdk/utilities/ShapeUtilities.hpp>
#include <hipdnn_data_sdk/utilities/Tensor.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fb = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_test_sdk::BackendHandle;
using hipdnn_test_sdk::BackendHeuristics;
using hipdnn_test_sdk::BackendPlan;
using hipdnn_test_sdk::BackendVariantPack;
using hipdnn_test_sdk::DeviceBuffer;
using hipdnn_test_sdk::GraphBuilder;

constexpr int kWarmup = 10;
constexpr int kRepeats = 15;
constexpr int kBatch = 10;

std::vector<int64_t> nhwc(const std::vector<int64_t>& dims) {
    std::vector<int64_t> order(dims.size());
    order[0] = static_cast<int64_t>(dims.size() - 1);
    order[1] = 0;
    for (size_t i = 2; i < dims.size(); ++i) {
        order[i] = static_cast<int64_t>(dims.size() - i);
    }
    return hipdnn_data_sdk::utilities::generatePackedStrides(dims, order);
}

size_t elementSize(fb::DataType type) {
    return type == fb::DataType::FLOAT ? 4 : 2;
}

// Uniform values in [-1, 1) in the tensor's type (fp32 or bf16 bits).
void fillRandom(DeviceBuffer& buffer, fb::DataType type, size_t elements) {
    std::mt19937 generator(1234);
    std::uniform_real_distribution<float> distribution(-1.0F, 1.0F);
    std::vector<uint8_t> host(buffer.size());
    for (size_t i = 0; i < elements; ++i) {
        const float value = distribution(generator);
        if (type == fb::DataType::FLOAT) {
            std::memcpy(host.data() + 4 * i, &value, 4);
        } else {
            const uint16_t bits = static_cast<hipdnn_data_sdk::types::bfloat16>(value).bits();
            std::memcpy(host.data() + 2 * i, &bits, 2);
        }
    }
    buffer.copyFromHost(host.data());
}

// A graph planned once (the heuristics' first configuration, mode A), with random device buffers
// and a variant pack bound once: execute() is one hipdnnBackendExecute.
class PlannedGraph {
public:
    PlannedGraph(hipdnnHandle_t handle, const std::vector<uint8_t>& bytes)
        : _plan(BackendHeuristics(handle, bytes, HIPDNN_HEUR_MODE_A)),
          _workspace(static_cast<size_t>(_plan.workspaceSize())),
          _pack(allocateBuffers(bytes), _workspace.data()) {}

    void execute() const { _plan.execute(_pack); }

    // Median over repeats of the mean time of a batch of executes, in milliseconds.
    double medianMilliseconds() {
        for (int i = 0; i < kWarmup; ++i) {
            execute();
        }
        cudaEvent_t start = nullptr;
        cudaEvent_t stop = nullptr;
        hipdnn_test_sdk::checkCuda(cudaEventCreate(&start), "cudaEventCreate");
        hipdnn_test_sdk::checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
        std::vector<double> samples;
        for (int repeat = 0; repeat < kRepeats; ++repeat) {
            cudaEventRecord(start, nullptr);
            for (int i = 0; i < kBatch; ++i) {
                execute();
            }
            cudaEventRecord(stop, nullptr);
            hipdnn_test_sdk::checkCuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
            float milliseconds = 0;
            cudaEventElapsedTime(&milliseconds, start, stop);
            samples.push_back(milliseconds / kBatch);
        }
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        std::sort(samples.begin(), samples.end());
        return samples[samples.size() / 2];
    }

    // Host time per execute call: median over repeats of short bursts, each started on an idle
    // GPU and short enough (100 calls) that the launch queue never fills and blocks the host.
    double hostMicrosecondsPerCall() {
        constexpr int kCalls = 100;
        for (int i = 0; i < kWarmup; ++i) {
            execute();
        }
        std::vector<double> samples;
        for (int repeat = 0; repeat < 21; ++repeat) {
            hipdnn_test_sdk::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < kCalls; ++i) {
                execute();
            }
            const auto stop = std::chrono::steady_clock::now();
            samples.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kCalls);
        }
        hipdnn_test_sdk::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        std::sort(samples.begin(), samples.end());
        return samples[samples.size() / 2];
    }

private:
    // One device buffer of random values per tensor the variant pack binds.
    std::map<int64_t, void*> allocateBuffers(const std::vector<uint8_t>& bytes) {
        const hipdnn_flatbuffers_sdk::GraphWrapper graph(bytes.data(), bytes.size());
        std::map<int64_t, void*> pointers;
        for (const auto* tensor : *graph.graph().tensors()) {
            if (tensor->virtual_() || tensor->value_type() != fb::TensorValue::NONE) {
                continue;
            }
            const std::vector<int64_t> dims(tensor->dims()->begin(), tensor->dims()->end());
            const std::vector<int64_t> strides(tensor->strides()->begin(), tensor->strides()->end());
            const auto elements = hipdnn_data_sdk::utilities::storageElementCount(dims, strides);
            DeviceBuffer& buffer =
                _buffers.emplace_back(static_cast<size_t>(elements) * elementSize(tensor->data_type()));
            // Random data: constant inputs draw less power and let the GPU clock higher, which
            // would flatter the timings against PyTorch's random tensors.
            fillRandom(buffer, tensor->data_type(), static_cast<size_t>(elements));
            pointers[tensor->uid()] = buffer.data();
        }
        return pointers;
    }

    BackendPlan _plan;
    DeviceBuffer _workspace;
    std::vector<DeviceBuffer> _buffers;  // declared before _pack: allocateBuffers() fills it
    BackendVariantPack _pack;
};

struct ConvLayer {
    const char* name;
    int64_t c, k, hw, rs, stride;
};

// ResNet-50 convolution layers (torchvision v1.5: stride on the 3x3), N = 32.
const std::vector<ConvLayer> kResnetLayers = {
    {"conv1_7x7", 3, 64, 224, 7, 2},          {"l1_1x1_64_64", 64, 64, 56, 1, 1},
    {"l1_3x3_64", 64, 64, 56, 3, 1},          {"l1_1x1_64_256", 64, 256, 56, 1, 1},
    {"l1_1x1_256_64", 256, 64, 56, 1, 1},     {"l2_3x3_128_s2", 128, 128, 56, 3, 2},
    {"l2_3x3_128", 128, 128, 28, 3, 1},       {"l2_1x1_128_512", 128, 512, 28, 1, 1},
    {"l2_1x1_512_128", 512, 128, 28, 1, 1},   {"l2_ds_256_512_s2", 256, 512, 56, 1, 2},
    {"l3_3x3_256", 256, 256, 14, 3, 1},       {"l3_1x1_256_1024", 256, 1024, 14, 1, 1},
    {"l3_1x1_1024_256", 1024, 256, 14, 1, 1}, {"l4_3x3_512", 512, 512, 7, 3, 1},
    {"l4_1x1_512_2048", 512, 2048, 7, 1, 1},  {"l4_1x1_2048_512", 2048, 512, 7, 1, 1},
};
constexpr int64_t kBatchSize = 32;

// The output height (= width) of a layer: an rs-tap window padded rs / 2 on both sides, undilated.
int64_t outputSize(const ConvLayer& layer) {
    const int64_t pad = layer.rs / 2;
    return hipdnn_data_sdk::utilities::SlidingWindow{layer.hw, layer.rs, pad, pad, layer.stride, 1}
        .outputLength()
        .value();
}

std::vector<uint8_t> convGraph(const ConvLayer& layer, fb::DataType type, const std::string& op, int64_t n,
                               bool biasRelu) {
    const int64_t pad = layer.rs / 2;
    const int64_t out = outputSize(layer);
    const std::vector<int64_t> x = {n, layer.c, layer.hw, layer.hw},
                               w = {layer.k, layer.c, layer.rs, layer.rs}, y = {n, layer.k, out, out};
    const hipdnn_test_sdk::ConvolutionGeometry geometry{
        {pad, pad}, {pad, pad}, {layer.stride, layer.stride}, {1, 1}};
    GraphBuilder builder(std::string(layer.name) + "_" + op);
    if (op == "fprop") {
        builder.addTensor(1, "x", type, x, nhwc(x)).addTensor(2, "w", type, w, nhwc(w));
        if (biasRelu) {
            const std::vector<int64_t> bias = {1, layer.k, 1, 1};
            builder.addTensor(3, "conv", fb::DataType::FLOAT, y, nhwc(y), true)
                .addTensor(4, "bias", type, bias, nhwc(bias))
                .addTensor(5, "biased", fb::DataType::FLOAT, y, nhwc(y), true)
                .addTensor(6, "y", type, y, nhwc(y))
                .addConvFprop("conv", 1, 2, 3, geometry)
                .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4)
                .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
        } else {
            builder.addTensor(3, "y", type, y, nhwc(y)).addConvFprop("conv", 1, 2, 3, geometry);
        }
    } else if (op == "dgrad") {
        builder.addTensor(1, "dy", type, y, nhwc(y))
            .addTensor(2, "w", type, w, nhwc(w))
            .addTensor(3, "dx", type, x, nhwc(x))
            .addConvDgrad("dgrad", 1, 2, 3, geometry);
    } else {
        builder.addTensor(1, "x", type, x, nhwc(x))
            .addTensor(2, "dy", type, y, nhwc(y))
            .addTensor(3, "dw", type, w, nhwc(w))
            .addConvWgrad("wgrad", 1, 2, 3, geometry);
    }
    return builder.build();
}

double convFlops(const ConvLayer& layer, int64_t n) {
    const int64_t out = outputSize(layer);
    return 2.0 * static_cast<double>(n * layer.k * out * out) *
           static_cast<double>(layer.c * layer.rs * layer.rs);
}

void report(const std::string& problem, fb::DataType type, const std::string& op, double ms, double flops) {
    std::printf("BENCH impl=hipdnn problem=%s dtype=%s layout=NHWC op=%s ms=%.4f tflops=%.2f\n",
                problem.c_str(), type == fb::DataType::FLOAT ? "fp32" : "bf16", op.c_str(), ms,
                flops / (ms * 1e9));
    std::fflush(stdout);
}

void timeProblem(hipdnnHandle_t handle, const std::string& problem, fb::DataType type, const std::string& op,
                 const std::vector<uint8_t>& bytes, double flops) {
    try {
        PlannedGraph planned(handle, bytes);
        report(problem, type, op, planned.medianMilliseconds(), flops);
    } catch (const std::exception& error) {
        // One line per problem: the declined engines' lines ("<engine>\t<plugin>\t<reason>") joined.
        std::string message = error.what();
        while (!message.empty() && message.back() == '\n') {
            message.pop_back();
        }
        std::replace(message.begin(), message.end(), '\n', ';');
        std::replace(message.begin(), message.end(), '\t', ' ');
        std::printf("BENCH impl=hipdnn problem=%s op=%s error=\"%s\"\n", problem.c_str(), op.c_str(),
                    message.c_str());
    }
}

}  // namespace

int main() {
    try {
        const char* paths[] = {HIPDNN_CUDNN_PLUGIN_PATH};
        hipdnn_test_sdk::checkBackend(
            hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE),
            "hipdnnSetEnginePluginPaths_ext");
        const BackendHandle gpu(HIPDNN_DEVICE_TYPE_GPU_EXT);
        const hipdnnHandle_t handle = gpu.get();

        // Host overhead of one execute from a built plan: 3x3 bf16 NHWC conv, N=1, 64 ch, 56x56.
        {
            const ConvLayer small{"small_3x3_64_n1", 64, 64, 56, 3, 1};
            PlannedGraph planned(handle, convGraph(small, fb::DataType::BFLOAT16, "fprop", 1, false));
            report(small.name, fb::DataType::BFLOAT16, "fprop", planned.medianMilliseconds(),
                   convFlops(small, 1));
            std::printf("HOSTCALL impl=hipdnn problem=%s us_per_call=%.2f\n", small.name,
                        planned.hostMicrosecondsPerCall());
        }
        for (fb::DataType type : {fb::DataType::BFLOAT16, fb::DataType::FLOAT}) {
            for (const ConvLayer& layer : kResnetLayers) {
                for (const char* op : {"fprop", "dgrad", "wgrad"}) {
                    if (std::string(op) == "dgrad" && layer.c == 3) {
                        continue;  // the first layer needs no input gradient
                    }
                    timeProblem(handle, layer.name, type, op, convGraph(layer, type, op, kBatchSize, false),
                                convFlops(layer, kBatchSize));
                }
            }
            const ConvLayer fused{"l1_3x3_64", 64, 64, 56, 3, 1};
            timeProblem(handle, "conv_bias_relu_3x3_64", type, "fprop_bias_relu",
                        convGraph(fused, type, "fprop", kBatchSize, true), convFlops(fused, kBatchSize));

            // Batch norm training, N=32, C=256, 56x56.
            const std::vector<int64_t> x = {kBatchSize, 256, 56, 56}, channel = {1, 256, 1, 1};
            GraphBuilder bn("bn_training");
            hipdnn_test_sdk::BatchnormTrainingPorts ports;
            ports.x = 1;
            ports.scale = 2;
            ports.bias = 3;
            ports.epsilon = 4;
            ports.y = 5;
            ports.mean = 6;
            ports.invVariance = 7;
            bn.addTensor(1, "x", type, x, nhwc(x))
                .addTensor(2, "scale", fb::DataType::FLOAT, channel)
                .addTensor(3, "bias", fb::DataType::FLOAT, channel)
                .addScalar(4, "epsilon", fb::DataType::FLOAT, 1e-5)
                .addTensor(5, "y", type, x, nhwc(x))
                .addTensor(6, "mean", fb::DataType::FLOAT, channel)
                .addTensor(7, "inv_variance", fb::DataType::FLOAT, channel)
                .addBatchnormTraining("bn", ports);
            timeProblem(handle, "bn_train_256_56", type, "batchnorm_training", bn.build(), 0.0);

            // Matmul 4096^3 and with bias + relu.
            for (bool epilogue : {false, true}) {
                const int64_t m = 4096;
                GraphBuilder mm("matmul");
                mm.addTensor(1, "a", type, {1, m, m}).addTensor(2, "b", type, {1, m, m});
                if (epilogue) {
                    mm.addTensor(3, "mm", fb::DataType::FLOAT, {1, m, m}, {}, true)
                        .addTensor(4, "bias", type, {1, 1, m})
                        .addTensor(5, "biased", fb::DataType::FLOAT, {1, m, m}, {}, true)
                        .addTensor(6, "c", type, {1, m, m})
                        .addMatmul("matmul", 1, 2, 3)
                        .addPointwise("bias", fb::PointwiseMode::ADD, 3, 5, 4)
                        .addPointwise("relu", fb::PointwiseMode::RELU_FWD, 5, 6);
                } else {
                    mm.addTensor(3, "c", type, {1, m, m}).addMatmul("matmul", 1, 2, 3);
                }
                timeProblem(handle, epilogue ? "matmul_bias_relu_4096" : "matmul_4096", type,
                            epilogue ? "matmul_bias_relu" : "matmul", mm.build(), 2.0 * m * m * m);
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "hipdnn_cudnn_bench: %s\n", error.what());
        return 1;
    }
    return 0;
}
