#include "MissingRuntime.hpp"

namespace example_missing_runtime {

int initialize() {
    return 1;
}

}  // namespace example_missing_runtime
