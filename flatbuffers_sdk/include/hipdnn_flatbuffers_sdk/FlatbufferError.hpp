#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hipdnn_flatbuffers_sdk {

// Base of every error raised while reading or writing the SDK's FlatBuffers.
class FlatbufferError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A graph buffer that is malformed or breaks the graph contract.
class GraphError : public FlatbufferError {
public:
    using FlatbufferError::FlatbufferError;
};

// An engine configuration buffer that is malformed, or a knob read with the wrong type.
class EngineConfigError : public FlatbufferError {
public:
    using FlatbufferError::FlatbufferError;
};

// Limits for the FlatBuffers verifier. Our tables nest a few levels deep (graph → node →
// attributes → vector); anything deeper or larger is a corrupted or hostile buffer.
inline constexpr flatbuffers::uoffset_t kVerifierMaxDepth = 16;
inline constexpr flatbuffers::uoffset_t kVerifierMaxTables = 1u << 20;

// The FlatBuffers verifier asserts (aborts the process) when constructed on a buffer of
// FLATBUFFERS_MAX_BUFFER_SIZE bytes or more: every reader refuses such a size before verifying.
inline bool exceedsFlatbufferSizeLimit(size_t size) {
    return size >= FLATBUFFERS_MAX_BUFFER_SIZE;
}

// True when v is one of the values the schema declares (every enum of our schemas is
// contiguous from MIN to MAX). The FlatBuffers verifier does not check enum values, and it
// accepts unknown union types, so readers must.
template <class Enum>
constexpr bool isKnownEnumValue(Enum v) {
    using Underlying = std::underlying_type_t<Enum>;
    return static_cast<Underlying>(v) >= static_cast<Underlying>(Enum::MIN) &&
           static_cast<Underlying>(v) <= static_cast<Underlying>(Enum::MAX);
}

// The verifier aligns a vector's length prefix to 4 bytes but not its elements; a corrupted
// buffer can hold a vector of 8-byte values at an address that is not a multiple of 8, and
// reading it would be undefined behaviour. Readers check before reading. Null and empty
// vectors are fine (builders do not align an empty vector's missing elements).
template <class T>
bool hasAlignedElements(const flatbuffers::Vector<T>* vector) {
    return vector == nullptr || vector->size() == 0 ||
           reinterpret_cast<std::uintptr_t>(vector->data()) % alignof(T) == 0;
}

// Copies a buffer and checks it with the FlatBuffers verifier as a `Root` table. The copy is
// owned by the caller and aligned for every scalar type, so buffers that arrive unaligned
// (e.g. nested inside another FlatBuffer's byte vector) still verify.
template <class Root, class Error>
std::vector<uint8_t> copyAndVerify(const void* data, size_t size, std::string_view what) {
    if (data == nullptr) {
        throw Error(std::string(what) + " buffer is a null pointer (size " + std::to_string(size) + ")");
    }
    if (size == 0) {
        throw Error(std::string(what) + " buffer is empty");
    }
    if (exceedsFlatbufferSizeLimit(size)) {
        throw Error(std::string(what) + " buffer of " + std::to_string(size) +
                    " bytes exceeds the FlatBuffers size limit");
    }
    const auto* bytes = static_cast<const uint8_t*>(data);
    std::vector<uint8_t> copy(bytes, bytes + size);
    flatbuffers::Verifier::Options options;
    options.max_depth = kVerifierMaxDepth;
    options.max_tables = kVerifierMaxTables;
    flatbuffers::Verifier verifier(copy.data(), copy.size(), options);
    if (!verifier.VerifyBuffer<Root>(nullptr)) {
        throw Error(std::string(what) + " buffer of " + std::to_string(size) +
                    " bytes failed FlatBuffers verification (truncated, corrupted or not a " +
                    std::string(what) + ")");
    }
    return copy;
}

}  // namespace hipdnn_flatbuffers_sdk
