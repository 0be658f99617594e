#include "Common.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <sstream>
#include <thread>

namespace hipdnn_test_sdk::references {

int64_t elementCount(const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (const int64_t dim : dims) {
        count *= dim;
    }
    return count;
}

std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t d = dims.size(); d-- > 1;) {
        strides[d - 1] = strides[d] * std::max<int64_t>(dims[d], 1);
    }
    return strides;
}

std::vector<int64_t> stridesForOrder(const std::vector<int64_t>& dims,
                                     const std::vector<int64_t>& strideOrder) {
    detail::require(dims.size() == strideOrder.size(), "stride order " + detail::toString(strideOrder) +
                                                           " does not match dims " + detail::toString(dims));
    std::vector<int64_t> strides(dims.size(), 0);
    int64_t next = 1;
    for (int64_t rank = 0; rank < static_cast<int64_t>(dims.size()); ++rank) {
        const auto position = std::find(strideOrder.begin(), strideOrder.end(), rank);
        detail::require(position != strideOrder.end(),
                        "stride order " + detail::toString(strideOrder) + " is not a permutation");
        const auto dim = static_cast<size_t>(position - strideOrder.begin());
        strides[dim] = next;
        next *= std::max<int64_t>(dims[dim], 1);
    }
    return strides;
}

unsigned referenceThreadCount() {
    constexpr unsigned maxThreads = 64;
    return std::clamp(std::thread::hardware_concurrency(), 1u, maxThreads);
}

void parallelFor(int64_t count, const std::function<void(int64_t begin, int64_t end)>& body) {
    if (count <= 0) {
        return;
    }
    // Small ranges run inline: starting threads would cost more than the work.
    constexpr int64_t minItemsPerThread = 256;
    const int64_t threads =
        std::min<int64_t>(referenceThreadCount(), (count + minItemsPerThread - 1) / minItemsPerThread);
    if (threads <= 1) {
        body(0, count);
        return;
    }
    // More chunks than threads so that uneven items (border outputs) still balance.
    const int64_t chunks = std::min<int64_t>(count, threads * 8);
    std::atomic<int64_t> nextChunk{0};
    std::exception_ptr firstError;
    std::mutex errorMutex;
    auto worker = [&] {
        for (int64_t chunk = nextChunk++; chunk < chunks; chunk = nextChunk++) {
            try {
                body(count * chunk / chunks, count * (chunk + 1) / chunks);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!firstError) {
                    firstError = std::current_exception();
                }
            }
        }
    };
    std::vector<std::thread> pool;
    for (int64_t t = 1; t < threads; ++t) {
        pool.emplace_back(worker);
    }
    worker();
    for (auto& thread : pool) {
        thread.join();
    }
    if (firstError) {
        std::rethrow_exception(firstError);
    }
}

namespace detail {

void fail(const std::string& message) {
    throw std::invalid_argument("hipdnn reference: " + message);
}

std::string toString(const std::vector<int64_t>& values) {
    std::ostringstream text;
    text << '[';
    for (size_t i = 0; i < values.size(); ++i) {
        text << (i ? ", " : "") << values[i];
    }
    text << ']';
    return text.str();
}

void checkView(const void* data, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
               const std::string& name) {
    require(dims.size() == strides.size(),
            name + ": dims " + toString(dims) + " and strides " + toString(strides) + " differ in length");
    for (const int64_t dim : dims) {
        require(dim >= 0, name + ": negative dim in " + toString(dims));
    }
    require(data != nullptr || elementCount(dims) == 0, name + ": null data");
}

}  // namespace detail
}  // namespace hipdnn_test_sdk::references
