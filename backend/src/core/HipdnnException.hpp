// The one exception type that carries a status out of the backend's internals. API entry points
// catch it and turn it into the returned status plus the thread's last-error message.
#pragma once

#include <stdexcept>
#include <string>

#include "HipdnnStatus.h"

namespace hipdnn_backend {

class HipdnnException : public std::runtime_error {
public:
    HipdnnException(hipdnnStatus_t status, const std::string& message)
        : std::runtime_error(message), _status(status) {}

    hipdnnStatus_t status() const noexcept { return _status; }

private:
    hipdnnStatus_t _status;
};

}  // namespace hipdnn_backend
