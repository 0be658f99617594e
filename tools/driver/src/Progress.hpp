// Progress over the engine runs of a batch or an `all` run: a bar redrawn in place on stderr
// when stderr is a terminal; nothing extra otherwise (each result line already carries its
// [position/total], which is the plain-line progress).
#pragma once

#include <cstddef>
#include <string>

namespace hipdnn_driver {

class Progress {
public:
    // `total` engine runs; the bar is drawn only when enabled and stderr is a terminal.
    Progress(size_t total, bool enabled);
    // Shows the run about to start.
    void start(size_t position, const std::string& what);
    // Erases the bar so that a result line can be printed cleanly.
    void clear();

private:
    size_t total_;
    bool drawing_;
    bool drawn_ = false;
};

}  // namespace hipdnn_driver
