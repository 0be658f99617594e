// The code generator behind generateNormSource, shared by the files of each kernel family:
// NormCodegen.cpp (the dispatch and what every kernel uses), RowNormCodegen.cpp (layer and RMS
// norm, forward and backward), PoolingCodegen.cpp, BatchnormCodegen.cpp (inference, training in
// three kernels, backward, synchronized) and BatchnormPersistentCodegen.cpp (channels-last training
// in one cooperative kernel).
#pragma once

#include "../pointwise/PointwiseCodegen.hpp"
#include "NormCodegen.hpp"

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace hipdnn_cuda_kernels::detail {

// At most this many statistics blocks per multiprocessor (the workspace holds their partial sums);
// at run time as many as are resident at once, so the pass is one wave.
inline constexpr int kMaxStatsBlocksPerMultiprocessor = 8;

std::string floatLiteral(double value);
std::string storage(ElementType type);
std::string kind(ElementType type);

class NormGenerator {
public:
    NormGenerator(const NormProgram& program, const DeviceInfo& device, bool scalar,
                  const NormOptions& options)
        : _program(program), _device(device), _scalar(scalar), _options(options) {}

    std::optional<NormSource> run(std::string& reason);

private:
    static bool decline(std::string& reason, std::string why) {
        reason = std::move(why);
        return false;
    }

    // Every kernel family (NormCodegen.cpp).
    int64_t indexLimit() const;
    // The widest element of the tensors read and written per element sets the vector width; a
    // virtual y (an epilogue's register operand) is not in memory and does not count.
    int widestVector() const { return _scalar ? 1 : static_cast<int>(16 / widestElement()); }
    size_t widestElement() const;
    std::string parameters() const;
    std::string header(const char* name, unsigned blockSize) const;
    bool has(const char* name) const { return _program.operand(name) != nullptr; }
    std::string read(const char* name, const std::string& index) const;
    std::string scalar(const NormScalar& value) const;
    std::string emitDelivery(int width, std::string& reason, bool& ok,
                             AccessHint storeHint = AccessHint::Normal);
    std::vector<std::string> vectorOperands() const;

    // Layer and RMS norm (RowNormCodegen.cpp).
    // A row of x as a group of `threads` (a power of two from 32 to 1024) holding `perThread`
    // vectors of `width` elements each, `rowsPerBlock` groups to a block.
    struct RowShape {
        int width = 1;
        int64_t vectors = 0;
        int threads = 32;
        int64_t perThread = 0;
        int rowsPerBlock = 1;
    };
    int rowWidth() const;
    bool rowShape(int width, int64_t targetPerThread, int64_t maxPerThread, RowShape& shape,
                  std::string& reason) const;
    void emitRowCommon(const RowShape& shape);
    std::string rowLoad(const char* name, const char* array, const std::string& indent) const;
    bool rowNorm(std::string& reason);
    bool rowNormBackward(std::string& reason);
    std::string rowBackwardCorrection() const;
    std::string rowBackwardElement() const;
    void emitRowFinalize(bool dbias);

    // Pooling (PoolingCodegen.cpp).
    bool poolingForward(std::string& reason);

    // Batch norm (BatchnormCodegen.cpp).
    bool backward() const { return _program.kind == NormKind::BatchnormBackward; }
    // A per-channel coefficient of the apply kernel: its name and its value for channel c.
    struct Coefficient {
        std::string name;
        std::string value;
    };
    int batchnormWidth() const;
    std::string perChannel(const char* name, const char* fallback) const;
    bool batchnorm(std::string& reason);
    std::string accumulate(const std::string& v, const std::string& g, const std::string& ref,
                           const std::string& s, const std::string& q) const;
    std::string loadOrNeutral(const std::string& offset, const std::string& ref,
                              const std::string& inRange) const;
    std::string reference(const std::string& c) const;
    bool emitStatistics(int width, std::string& reason);
    std::string sumParts() const;
    void emitFinalize(int64_t perChannelCount);
    void emitSynchronizedFinalize(int64_t perChannelCount);
    static std::string bessel(int64_t perChannelCount);
    void emitFinalizeFromSums(const std::string& shift, const std::string& besselFactor);
    void writePerChannel(const char* name, const std::string& value);
    std::vector<Coefficient> applyCoefficients() const;
    std::string applyFormula(const std::string& k, const std::string& prefix = "hdnn_") const;
    void emitApply(bool channelsLast, const std::string& delivery);

    // Channels-last batch norm training in one cooperative kernel (BatchnormPersistentCodegen.cpp).
    bool persistentTraining() const;
    bool emitPersistentTraining(int width, std::string& reason);

    const NormProgram& _program;
    const DeviceInfo& _device;
    bool _scalar;
    NormOptions _options;
    std::ostringstream _out;
    NormSource _result;
};

}  // namespace hipdnn_cuda_kernels::detail
