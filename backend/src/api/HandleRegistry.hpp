// The opaque hipdnnHandle and the registry of live handles, so that a destroyed or garbage
// handle is BAD_PARAM rather than a crash.
#pragma once

#include <memory>

#include "hipdnn_backend.h"
#include "plugin/HandleState.hpp"

struct hipdnnHandle {
    std::shared_ptr<hipdnn_backend::plugin::HandleState> state;
};

namespace hipdnn_backend::api {

hipdnnHandle_t registerHandle(std::shared_ptr<plugin::HandleState> state);
// BAD_PARAM when `handle` is not live.
std::shared_ptr<plugin::HandleState> lookupHandle(hipdnnHandle_t handle);
void unregisterHandle(hipdnnHandle_t handle);

}  // namespace hipdnn_backend::api
