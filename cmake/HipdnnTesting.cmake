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
    # PROPERTIES is a flat key/value list: list-valued properties need their ';' escaped.
    string(REPLACE ";" "\\;" labels "${ARG_LABELS}")
    string(REPLACE ";" "\\;" environment "${ARG_ENVIRONMENT}")
    gtest_discover_tests(${ARG_NAME}
        DISCOVERY_TIMEOUT 60
        PROPERTIES LABELS "${labels}" TIMEOUT ${ARG_TIMEOUT} ENVIRONMENT "${environment}")
endfunction()
