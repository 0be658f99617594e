// The registry of live hipdnn handles, so that a destroyed or garbage handle is BAD_PARAM rather
// than a crash. Handle values are ids from a HandleTable, never reused and never dereferenced
// (struct hipdnnHandle is never defined).
#pragma once

#include <memory>

#include "hipdnn_backend.h"
#include "plugin/HandleState.hpp"

namespace hipdnn_backend::api {

hipdnnHandle_t registerHandle(std::shared_ptr<plugin::HandleState> state);
// BAD_PARAM naming `handle` when it is not live (destroyed, or never created).
std::shared_ptr<plugin::HandleState> lookupHandle(hipdnnHandle_t handle);
void unregisterHandle(hipdnnHandle_t handle);

}  // namespace hipdnn_backend::api
