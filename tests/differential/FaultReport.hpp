// A guard-page fault kills the process; the handler says which engine and graph caused it
// before the default action (core dump) runs.
#pragma once

#include <string>

namespace hipdnn_differential {

/// SIGSEGV and SIGBUS print the current FaultContext, then die as they would have.
void installFaultHandler();

/// While alive, the text a fault prints: the engine, the command that reproduces the graph and the
/// graph as JSON.
class FaultContext {
public:
    FaultContext(const std::string& engine, const std::string& reproduce, const std::string& graphJson);
    ~FaultContext();
    FaultContext(const FaultContext&) = delete;
    FaultContext& operator=(const FaultContext&) = delete;

private:
    std::string _text;
};

}  // namespace hipdnn_differential
