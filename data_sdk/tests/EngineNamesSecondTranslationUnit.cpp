#include "EngineNamesTestRegistrations.hpp"

const hipdnn_data_sdk::utilities::EngineRegistrar* sharedHeaderRegistrarSeenBySecondUnit() {
    return &TEST_SHARED_HEADER_ENGINE_REGISTRAR;
}
