// Registrations included by two translation units of the test: the inline registrar must run
// once, or the test program would stop at start-up with a duplicate-name error.
#pragma once

#include <hipdnn_data_sdk/utilities/EngineNames.hpp>

HIPDNN_REGISTER_ENGINE(TEST_SHARED_HEADER_ENGINE)
HIPDNN_REGISTER_ENGINE(TEST_SPELLED_ENGINE, "test.spelled-engine/v2")

/// The registrar object as the second translation unit sees it; defined there.
const hipdnn_data_sdk::utilities::EngineRegistrar* sharedHeaderRegistrarSeenBySecondUnit();
