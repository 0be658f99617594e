# Fails the build of the extension when it does not load the shared libstdc++: a module that
# carries its own copy (a compiler configured to link libstdc++ statically) beside the backend's
# shared one imports, then crashes in its first stream output (seen with such a g++).
#   cmake -DREADELF=<readelf> -DMODULE=<module file> -P CheckSharedLibstdcxx.cmake
execute_process(COMMAND ${READELF} --dynamic ${MODULE} OUTPUT_VARIABLE dynamic_section RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${READELF} --dynamic ${MODULE} failed (${status})")
endif()
if(NOT dynamic_section MATCHES "\\(NEEDED\\)[^\n]*libstdc\\+\\+\\.so")
    message(FATAL_ERROR "${MODULE} does not load the shared libstdc++ (no NEEDED libstdc++.so entry): the "
                        "compiler linked the C++ standard library into it statically, and it would crash beside "
                        "the backend's shared one. Build with a compiler that links libstdc++ dynamically "
                        "(e.g. CXX=/usr/bin/g++).")
endif()
