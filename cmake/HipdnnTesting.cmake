# hipdnn_add_gtest(NAME <target> LABELS <labels...> SOURCES <files...> LIBS <targets...>)
# Builds a GoogleTest executable and registers each of its tests with CTest.
include(GoogleTest)
function(hipdnn_add_gtest)
    cmake_parse_arguments(ARG "" "NAME;TIMEOUT" "LABELS;SOURCES;LIBS;ENVIRONMENT" ${ARGN})
    add_executable(${ARG_NAME} ${ARG_SOURCES})
    target_link_libraries(${ARG_NAME} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
    if(NOT ARG_TIMEOUT)
        set(ARG_TIMEOUT 600)
    endif()
    # gtest_discover_tests flattens PROPERTIES into one list, so a list value would be split:
    # tests carry one label, and ENVIRONMENT takes one VAR=value.
    list(LENGTH ARG_LABELS label_count)
    list(LENGTH ARG_ENVIRONMENT environment_count)
    if(label_count GREATER 1 OR environment_count GREATER 1)
        message(FATAL_ERROR "hipdnn_add_gtest(${ARG_NAME}): give one label and at most one ENVIRONMENT entry")
    endif()
    gtest_discover_tests(${ARG_NAME}
        DISCOVERY_TIMEOUT 60
        PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${ARG_ENVIRONMENT}")
endfunction()
