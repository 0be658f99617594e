#include "Progress.hpp"

#include <cstdio>
#include <iostream>

#include <unistd.h>

namespace hipdnn_driver {

namespace {
constexpr size_t kBarWidth = 30;
constexpr size_t kLabelWidth = 70;
}  // namespace

Progress::Progress(size_t total, bool enabled)
    : total_(total), drawing_(enabled && isatty(STDERR_FILENO) == 1) {}

void Progress::start(size_t position, const std::string& what) {
    if (!drawing_ || total_ == 0) {
        return;
    }
    const size_t filled = kBarWidth * (position - 1) / total_;
    std::string bar(filled, '#');
    bar += std::string(kBarWidth - filled, '.');
    const std::string label = what.size() > kLabelWidth ? what.substr(0, kLabelWidth - 3) + "..." : what;
    std::cout.flush();
    std::cerr << "\r\033[K[" << bar << "] " << position << "/" << total_ << " " << label << std::flush;
    drawn_ = true;
}

void Progress::clear() {
    if (drawn_) {
        std::cerr << "\r\033[K" << std::flush;
        drawn_ = false;
    }
}

}  // namespace hipdnn_driver
