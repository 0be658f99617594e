#include "FaultReport.hpp"

#include <signal.h>
#include <unistd.h>

namespace hipdnn_differential {

namespace {

// Formatted before each run: the handler may only call async-signal-safe functions.
const char* volatile faultText = nullptr;
volatile size_t faultTextBytes = 0;

void onFault(int signalNumber) {
    if (faultText != nullptr) {
        const ssize_t written = write(STDERR_FILENO, faultText, faultTextBytes);
        static_cast<void>(written);
    }
    raise(signalNumber);  // SA_RESETHAND restored the default action
}

}  // namespace

void installFaultHandler() {
    struct sigaction action {};
    action.sa_handler = onFault;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
    sigaction(SIGBUS, &action, nullptr);
}

FaultContext::FaultContext(const std::string& engine, const std::string& reproduce,
                           const std::string& graphJson)
    : _text("\nFAULT in " + engine + " (an access outside a buffer hits a guard page)\n  reproduce: " +
            reproduce + "\n  graph: " + graphJson + "\n") {
    faultTextBytes = _text.size();
    faultText = _text.c_str();
}

FaultContext::~FaultContext() {
    faultText = nullptr;
}

}  // namespace hipdnn_differential
