#pragma once

#include <cstdint>
#include <functional>

namespace hipdnn_test_sdk::references {

// std::thread::hardware_concurrency(), at least 1 and at most 64.
unsigned referenceThreadCount();

// Calls body(begin, end) on disjoint ranges that together cover [0, count), from up to
// referenceThreadCount() threads, and returns when all are done. The first exception thrown by
// body is rethrown on the calling thread.
void parallelFor(int64_t count, const std::function<void(int64_t begin, int64_t end)>& body);

}  // namespace hipdnn_test_sdk::references
