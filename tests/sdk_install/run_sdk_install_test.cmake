# cmake -DBUILD_DIR=<build> -DWORK_DIR=<scratch> -DCONSUMER_SOURCE_DIR=<consumer>
#       [-DCXX_COMPILER=<c++>] [-DMAKE_PROGRAM=<ninja>] -P run_sdk_install_test.cmake
#
# 1. cmake --install of the build's data_sdk, flatbuffers_sdk and plugin_sdk folders into
#    <scratch>/prefix (their FlatBuffers headers are generated first; a no-op after a full build).
#    Installing only the SDK folders keeps the test independent of the rest of the build.
# 2. configure, build and install the consumer with Ninja, with only that prefix in
#    CMAKE_PREFIX_PATH (and the user package registry off)
# 3. run the consumer's program on the consumer's installed plugin
cmake_minimum_required(VERSION 3.25)

foreach(required BUILD_DIR WORK_DIR CONSUMER_SOURCE_DIR)
    if(NOT DEFINED ${required})
        message(FATAL_ERROR "run_sdk_install_test.cmake: -D${required}=... is required")
    endif()
endforeach()

function(run_step description)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "sdk_install: ${description} failed (${result}):\n${output}")
    endif()
    message(STATUS "sdk_install: ${description}: ok")
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer-build)
set(consumer_install ${WORK_DIR}/consumer-install)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run_step("generation of the FlatBuffers headers"
    ${CMAKE_COMMAND} --build ${BUILD_DIR} --target generate_hipdnn_flatbuffers_sdk_headers)
foreach(sdk data_sdk flatbuffers_sdk plugin_sdk)
    run_step("install of ${BUILD_DIR}/${sdk}" ${CMAKE_COMMAND} --install ${BUILD_DIR}/${sdk} --prefix ${prefix})
endforeach()

foreach(package hipdnn_data_sdk hipdnn_flatbuffers_sdk hipdnn_plugin_sdk)
    if(NOT EXISTS ${prefix}/lib/cmake/${package}/${package}Config.cmake)
        message(FATAL_ERROR "sdk_install: ${prefix}/lib/cmake/${package}/${package}Config.cmake was not installed")
    endif()
endforeach()

set(configure_args
    -G Ninja -S ${CONSUMER_SOURCE_DIR} -B ${consumer_build}
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_INSTALL_PREFIX=${consumer_install}
    -DHIPDNN_SDK_PREFIX=${prefix})
if(CXX_COMPILER)
    list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(MAKE_PROGRAM)
    list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
run_step("consumer configure" ${CMAKE_COMMAND} ${configure_args})
run_step("consumer build" ${CMAKE_COMMAND} --build ${consumer_build})
run_step("consumer install" ${CMAKE_COMMAND} --install ${consumer_build})

set(installed_plugin ${consumer_install}/lib/hipdnn_plugins/engines/my_custom_plugin.so)
if(NOT EXISTS ${installed_plugin})
    message(FATAL_ERROR "sdk_install: the consumer plugin was not installed to ${installed_plugin}")
endif()
run_step("consumer program" ${consumer_build}/check_my_custom_engine ${installed_plugin})
