// list: the plugins the backend loaded (path, name, version, API version, device), the engines of
// the handle's device (name, id, plugin) with their knobs, and the handle's device.
#pragma once

#include <iosfwd>

#include "Session.hpp"

namespace hipdnn_driver {

void printList(Session& session, std::ostream& out);

}  // namespace hipdnn_driver
