// The driver as a function of its arguments, so that tests can run it in-process too.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace hipdnn_driver {

// Exit status: 0 when everything that ran passed; 1 when a result FAILED or is an ERROR, or a
// problem ran on no engine at all; 2 for a bad command line or batch file.
int runDriver(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace hipdnn_driver
