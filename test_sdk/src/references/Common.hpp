// Helpers shared by the reference implementations; not part of the public API.
#pragma once

#include <hipdnn_data_sdk/types.hpp>
#include <hipdnn_test_sdk/references/Parallel.hpp>
#include <hipdnn_test_sdk/references/TensorView.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnn_test_sdk::references::detail {

using hipdnn_data_sdk::types::bfloat16;
using hipdnn_data_sdk::types::half;

// The reduced-precision types convert only explicitly, and directly from double, so a double
// result is rounded once.
template <class C, class T>
inline C load(T value) {
    return static_cast<C>(value);
}

template <class T, class C>
inline T store(C value) {
    return static_cast<T>(value);
}

[[noreturn]] void fail(const std::string& message);

inline void require(bool condition, const std::string& message) {
    if (!condition) {
        fail(message);
    }
}

std::string toString(const std::vector<int64_t>& values);

// Checks that dims and strides agree in length, dims are non-negative and data is set when
// the tensor has elements.
void checkView(const void* data, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
               const std::string& name);

template <class T>
void checkView(const TensorView<T>& view, const std::string& name) {
    checkView(static_cast<const void*>(view.data), view.dims, view.strides, name);
}

// Visits the row-major indices [begin, end) of dims, handing fn the element offset in each of
// the N stride sets (odometer increments instead of a division per element).
template <size_t N, class Fn>
void forEachOffset(const std::vector<int64_t>& dims,
                   const std::array<const std::vector<int64_t>*, N>& strideSets, int64_t begin, int64_t end,
                   Fn&& fn) {
    if (begin >= end) {
        return;
    }
    const size_t rank = dims.size();
    std::vector<int64_t> coord(rank, 0);
    std::array<int64_t, N> offsets{};
    int64_t remaining = begin;
    for (size_t d = rank; d-- > 0;) {
        coord[d] = remaining % dims[d];
        remaining /= dims[d];
        for (size_t s = 0; s < N; ++s) {
            offsets[s] += coord[d] * (*strideSets[s])[d];
        }
    }
    for (int64_t linear = begin; linear < end; ++linear) {
        fn(linear, offsets, coord);
        for (size_t d = rank; d-- > 0;) {
            ++coord[d];
            for (size_t s = 0; s < N; ++s) {
                offsets[s] += (*strideSets[s])[d];
            }
            if (coord[d] < dims[d]) {
                break;
            }
            for (size_t s = 0; s < N; ++s) {
                offsets[s] -= coord[d] * (*strideSets[s])[d];
            }
            coord[d] = 0;
        }
    }
}

// A view whose dims are reordered: result dim i is source dim order[i].
template <class T>
TensorView<T> permuted(const TensorView<T>& view, const std::vector<int64_t>& order) {
    TensorView<T> result{view.data, {}, {}};
    for (const int64_t source : order) {
        result.dims.push_back(view.dims[static_cast<size_t>(source)]);
        result.strides.push_back(view.strides[static_cast<size_t>(source)]);
    }
    return result;
}

// Copies a view into a packed row-major buffer of the compute type.
template <class C, class T>
std::vector<C> gatherPacked(const TensorView<const T>& view) {
    std::vector<C> packed(static_cast<size_t>(view.elementCount()));
    parallelFor(view.elementCount(), [&](int64_t begin, int64_t end) {
        forEachOffset<1>(view.dims, {&view.strides}, begin, end,
                         [&](int64_t linear, const std::array<int64_t, 1>& offset, const auto&) {
                             packed[static_cast<size_t>(linear)] = load<C>(view.data[offset[0]]);
                         });
    });
    return packed;
}

// Writes a packed row-major buffer of the compute type into a view, rounding each element.
template <class T, class C>
void scatterPacked(const std::vector<C>& packed, const TensorView<T>& view) {
    parallelFor(view.elementCount(), [&](int64_t begin, int64_t end) {
        forEachOffset<1>(view.dims, {&view.strides}, begin, end,
                         [&](int64_t linear, const std::array<int64_t, 1>& offset, const auto&) {
                             view.data[offset[0]] = store<T>(packed[static_cast<size_t>(linear)]);
                         });
    });
}

// The offset of the channel-c element of a per-channel (1, C, 1, ...) tensor.
inline int64_t channelOffset(const std::vector<int64_t>& strides, int64_t channel) {
    return channel * strides[1];
}

}  // namespace hipdnn_test_sdk::references::detail
