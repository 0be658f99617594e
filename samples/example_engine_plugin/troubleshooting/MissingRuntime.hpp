// A tiny shared library that example_missing_dependency_plugin links and that is deliberately
// never installed: the installed plugin then cannot be loaded (RTLD_NOW resolves dependencies at
// load time), as when a plugin's vendor runtime is missing on a machine.
#pragma once

#if defined(EXAMPLE_MISSING_RUNTIME_BUILDING)
#define EXAMPLE_MISSING_RUNTIME_API __attribute__((visibility("default")))
#else
#define EXAMPLE_MISSING_RUNTIME_API
#endif

namespace example_missing_runtime {

/// Returns the number of devices the runtime found (always 1: it is a stand-in).
EXAMPLE_MISSING_RUNTIME_API int initialize();

}  // namespace example_missing_runtime
