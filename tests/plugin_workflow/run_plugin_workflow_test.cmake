# cmake -DBUILD_DIR=<hipdnn build> -DWORK_DIR=<scratch> -DEXAMPLE_SOURCE_DIR=<samples/example_engine_plugin>
#       [-DCXX_COMPILER=<c++>] [-DMAKE_PROGRAM=<ninja>] [-DNM=<nm>] [-DSANITIZER_FLAGS=<flags>]
#       -P run_plugin_workflow_test.cmake
#
# Proves, step by step, what docs/PluginDevelopment.md promises a plugin author:
#  1. cmake --install of the whole build into <scratch>/prefix (a fresh prefix)
#  2. the example configures against that prefix only (CMAKE_PREFIX_PATH, no package registries)
#     and nothing of the hipDNN build tree appears in its build files
#  3. it builds (-j2) and its own ctest (unit + Smoke/Full integration) passes
#  4. `nm -gD` of the plugin lists only hipdnnPlugin*/hipdnnEnginePlugin* functions, while the
#     default-visibility collision variant exports more (the check can fail)
#  5. before installing: HIPDNN_PLUGIN_DIR (alone, and with a supplementary custom path) and
#     hipdnnSetEnginePluginPaths_ext ADDITIVE/ABSOLUTE with absolute and relative (to the backend
#     library's folder) paths load exactly the expected plugins, the example engine runs a graph
#     correctly each time, and paths changed after a handle exists apply to the next handle only
#  6. cmake --install puts the plugin in <prefix>/lib/hipdnn_plugins/engines, where the backend
#     loads it by default; the installed file passes the nm check too
#  7. each troubleshooting case, loaded next to the good plugin with HIPDNN_LOG_LEVEL and
#     HIPDNN_LOG_FILE set, logs the guide's message while the good plugin keeps serving (the
#     collision case collides only where the compiler emits STB_GNU_UNIQUE symbols: GCC, not clang)
cmake_minimum_required(VERSION 3.25)

foreach(required BUILD_DIR WORK_DIR EXAMPLE_SOURCE_DIR)
    if(NOT DEFINED ${required})
        message(FATAL_ERROR "run_plugin_workflow_test.cmake: -D${required}=... is required")
    endif()
endforeach()
if(NOT NM)
    find_program(NM nm REQUIRED)
endif()

string(TIMESTAMP started "%s")
set(prefix ${WORK_DIR}/prefix)
set(example_build ${WORK_DIR}/example-build)
set(logs ${WORK_DIR}/logs)
set(engines_dir ${prefix}/lib/hipdnn_plugins/engines)
set(troubleshooting_dir ${prefix}/lib/hipdnn_example_troubleshooting)
set(example_plugin_name libexample_relu_add_plugin.so)
set(built_plugin ${example_build}/plugins/${example_plugin_name})
set(installed_plugin ${engines_dir}/${example_plugin_name})
set(cpu_reference_plugin ${engines_dir}/libcpu_reference.so)
set(loader ${example_build}/loader/example_plugin_loader)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${logs})

# The environment variables the backend reads are cleared for every step unless a step sets them.
set(clean_environment --unset=HIPDNN_PLUGIN_DIR --unset=HIPDNN_LOG_LEVEL --unset=HIPDNN_LOG_FILE
                      --unset=HIPDNN_DEVICE)

# run_step(<description> [ENV <VAR=value>...] COMMAND <command...>): fails the test with the
# command's output unless it exits 0; the output is kept in `step_output`.
function(run_step description)
    cmake_parse_arguments(ARG "" "" "ENV;COMMAND" ${ARGN})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${clean_environment} ${ARG_ENV} ${ARG_COMMAND}
                    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "plugin_workflow: ${description} failed (${result}):\n${output}")
    endif()
    message(STATUS "plugin_workflow: ${description}: ok")
    set(step_output "${output}" PARENT_SCOPE)
endfunction()

function(require_file path what)
    if(NOT EXISTS ${path})
        message(FATAL_ERROR "plugin_workflow: ${what} (${path}) does not exist")
    endif()
endfunction()

# ---- 1. hipDNN into a fresh prefix -------------------------------------------------------------
run_step("install of ${BUILD_DIR} into ${prefix}" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
require_file(${prefix}/lib/libhipdnn_backend.so "the installed backend")
require_file(${cpu_reference_plugin} "the installed CPU reference plugin")
foreach(package hipdnn_data_sdk hipdnn_flatbuffers_sdk hipdnn_plugin_sdk hipdnn_test_sdk hipdnn_backend)
    require_file(${prefix}/lib/cmake/${package}/${package}Config.cmake "the ${package} package")
endforeach()

# ---- 2. configure the example against the prefix only -------------------------------------------
set(configure_args
    -G Ninja -S ${EXAMPLE_SOURCE_DIR} -B ${example_build}
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
    -DCMAKE_INSTALL_PREFIX=${prefix}
    -DEXAMPLE_BUILD_BROKEN_VARIANTS=ON)
if(CXX_COMPILER)
    list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(MAKE_PROGRAM)
    list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(SANITIZER_FLAGS)
    # A sanitized hipDNN leaves the sanitizer runtime to the executables: build the example alike.
    list(APPEND configure_args -DCMAKE_CXX_FLAGS=${SANITIZER_FLAGS} -DCMAKE_EXE_LINKER_FLAGS=${SANITIZER_FLAGS}
                               -DCMAKE_SHARED_LINKER_FLAGS=${SANITIZER_FLAGS})
endif()
run_step("example configure" COMMAND ${CMAKE_COMMAND} ${configure_args})

file(STRINGS ${example_build}/CMakeCache.txt package_dirs REGEX "^hipdnn_[a-z_]+_DIR:")
list(LENGTH package_dirs package_count)
if(package_count LESS 5)
    message(FATAL_ERROR "plugin_workflow: expected the example to find 5 hipDNN packages, found:\n${package_dirs}")
endif()
foreach(entry IN LISTS package_dirs)
    string(REGEX REPLACE "^[^=]*=" "" package_dir "${entry}")
    cmake_path(IS_PREFIX prefix "${package_dir}" NORMALIZE from_prefix)
    if(NOT from_prefix)
        message(FATAL_ERROR "plugin_workflow: the example found ${entry}, outside ${prefix}")
    endif()
endforeach()
file(READ ${example_build}/build.ninja example_build_rules)
foreach(component data_sdk flatbuffers_sdk plugin_sdk test_sdk backend plugins lib)
    string(FIND "${example_build_rules}" "${BUILD_DIR}/${component}/" found)
    if(NOT found EQUAL -1)
        message(FATAL_ERROR "plugin_workflow: the example's build rules use ${BUILD_DIR}/${component}/")
    endif()
endforeach()

# ---- 3. build and the example's own tests ------------------------------------------------------
run_step("example build (-j2)" COMMAND ${CMAKE_COMMAND} --build ${example_build} --parallel 2)
run_step("example ctest" COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${example_build} --output-on-failure)
string(REGEX MATCH "[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+" ctest_summary "${step_output}")
message(STATUS "plugin_workflow: example ctest: ${ctest_summary}")
if(NOT ctest_summary MATCHES "^100% tests passed, 0 tests failed out of ([0-9]+)" OR CMAKE_MATCH_1 LESS 3)
    message(FATAL_ERROR "plugin_workflow: the example's ctest did not run and pass its tests:\n${step_output}")
endif()

# ---- 4. exported symbols -----------------------------------------------------------------------
# exported_symbols(<library> <out-var>): "<type> <name>" of every defined dynamic symbol.
function(exported_symbols library out)
    run_step("nm -gD ${library}" COMMAND ${NM} -gD --defined-only ${library})
    string(REPLACE "\n" ";" lines "${step_output}")
    set(symbols)
    foreach(line IN LISTS lines)
        if(line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) (.+)$")
            list(APPEND symbols "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}")
        endif()
    endforeach()
    set(${out} "${symbols}" PARENT_SCOPE)
endfunction()

# The guide's check: `nm -gD plugin.so | grep " T "` lists only plugin API functions. Stricter
# here: no other symbol of any type is exported either.
function(check_plugin_exports library)
    exported_symbols(${library} symbols)
    set(functions)
    foreach(symbol IN LISTS symbols)
        if(NOT symbol MATCHES "^T hipdnn(Engine)?Plugin[A-Za-z_]*$")
            message(FATAL_ERROR "plugin_workflow: ${library} exports '${symbol}', not a plugin API function")
        endif()
        list(APPEND functions "${symbol}")
    endforeach()
    foreach(api hipdnnPluginGetName hipdnnEnginePluginCreate hipdnnEnginePluginDestroy
                hipdnnEnginePluginGetAllEngineIds hipdnnEnginePluginExecuteOpGraph)
        if(NOT "T ${api}" IN_LIST functions)
            message(FATAL_ERROR "plugin_workflow: ${library} does not export ${api}")
        endif()
    endforeach()
    list(LENGTH functions count)
    message(STATUS "plugin_workflow: ${library} exports only the plugin API (${count} functions)")
endfunction()

check_plugin_exports(${built_plugin})
exported_symbols(${example_build}/troubleshooting/collision/libexample_collision_a_plugin.so collision_symbols)
list(FILTER collision_symbols EXCLUDE REGEX "^T hipdnn(Engine)?Plugin")
list(LENGTH collision_symbols leaked)
if(leaked EQUAL 0)
    message(FATAL_ERROR "plugin_workflow: the default-visibility collision plugin exports only the plugin API; "
                        "the nm check would not tell it from a correct build")
endif()
message(STATUS "plugin_workflow: the default-visibility collision plugin exports ${leaked} other symbols")
# The collision needs the plugin's function-local static (processWideState()'s) to be a
# STB_GNU_UNIQUE symbol (`u`), which GCC emits and clang never does: built with clang, the two
# copies load side by side.
list(FILTER collision_symbols INCLUDE REGEX "^u .*processWideState")
if(collision_symbols)
    set(collision_expected ON)
    message(STATUS "plugin_workflow: the collision plugin's state is STB_GNU_UNIQUE: the copies collide")
else()
    set(collision_expected OFF)
    message(STATUS "plugin_workflow: the collision plugin's state is not STB_GNU_UNIQUE: the copies do not collide")
endif()

# ---- 5. loading before installation ------------------------------------------------------------
# HIPDNN_PLUGIN_DIR replaces the default folder: the CPU reference plugin of the prefix is ignored.
run_step("HIPDNN_PLUGIN_DIR loads only its folder" ENV HIPDNN_PLUGIN_DIR=${example_build}/plugins
    COMMAND ${loader} --expect-loaded ${built_plugin} --expect-only)
# ... and custom paths still supplement it.
run_step("HIPDNN_PLUGIN_DIR plus a supplementary custom path" ENV HIPDNN_PLUGIN_DIR=${example_build}/plugins
    COMMAND ${loader} --plugin-path ${cpu_reference_plugin} --mode additive
            --expect-loaded ${built_plugin} --expect-loaded ${cpu_reference_plugin} --expect-only)

file(RELATIVE_PATH relative_plugins ${prefix}/lib ${example_build}/plugins)
run_step("ADDITIVE absolute path"
    COMMAND ${loader} --plugin-path ${example_build}/plugins --mode additive
            --expect-loaded ${built_plugin} --expect-loaded ${cpu_reference_plugin})
run_step("ADDITIVE path relative to the backend library (${relative_plugins})"
    COMMAND ${loader} --plugin-path ${relative_plugins} --mode additive
            --expect-loaded ${built_plugin} --expect-loaded ${cpu_reference_plugin})
run_step("ABSOLUTE absolute path, then a path change applies to the next handle only"
    COMMAND ${loader} --plugin-path ${example_build}/plugins --mode absolute
            --expect-loaded ${built_plugin} --expect-only --then-absolute ${cpu_reference_plugin})
run_step("ABSOLUTE path relative to the backend library (${relative_plugins}/${example_plugin_name})"
    COMMAND ${loader} --plugin-path ${relative_plugins}/${example_plugin_name} --mode absolute
            --expect-loaded ${built_plugin} --expect-only)

# ---- 6. installation into the default folder ---------------------------------------------------
run_step("example install" COMMAND ${CMAKE_COMMAND} --install ${example_build})
require_file(${installed_plugin} "the installed example plugin")
file(GLOB_RECURSE installed_runtime ${prefix}/*libexample_missing_runtime*)
if(installed_runtime)
    message(FATAL_ERROR "plugin_workflow: the missing-dependency case needs its runtime uninstalled: ${installed_runtime}")
endif()
check_plugin_exports(${installed_plugin})
run_step("default folder <prefix>/lib/hipdnn_plugins/engines"
    COMMAND ${loader} --expect-loaded ${installed_plugin} --expect-loaded ${cpu_reference_plugin}
            --expect-engine EXAMPLE_RELU_ADD_ENGINE --expect-engine CPU_REFERENCE_ENGINE)
message(STATUS "plugin_workflow: ${step_output}")

# ---- 7. troubleshooting ------------------------------------------------------------------------
# troubleshoot(<case> [LOADER_ARGS <args...>] [EXPECT <text...>] [REJECT <text...>]): loads the case
# folder next to the default folder (ADDITIVE) with logging to a file; the good plugin must load
# and run its graph, and the log must hold every EXPECT text and no REJECT text.
function(troubleshoot case)
    cmake_parse_arguments(ARG "" "PATH" "LOADER_ARGS;EXPECT;REJECT" ${ARGN})
    if(NOT ARG_PATH)
        set(ARG_PATH ${troubleshooting_dir}/${case})
    endif()
    set(log ${logs}/${case}.log)
    run_step("troubleshooting case ${case}" ENV HIPDNN_LOG_LEVEL=info HIPDNN_LOG_FILE=${log}
        COMMAND ${loader} --plugin-path ${ARG_PATH} --mode additive --expect-loaded ${installed_plugin}
                ${ARG_LOADER_ARGS})
    require_file(${log} "the HIPDNN_LOG_FILE of case ${case}")
    file(READ ${log} log_text)
    foreach(text IN LISTS ARG_EXPECT)
        string(FIND "${log_text}" "${text}" found)
        if(found EQUAL -1)
            message(FATAL_ERROR "plugin_workflow: case ${case}: the log lacks\n  ${text}\nlog:\n${log_text}")
        endif()
    endforeach()
    foreach(text IN LISTS ARG_REJECT)
        string(FIND "${log_text}" "${text}" found)
        if(NOT found EQUAL -1)
            message(FATAL_ERROR "plugin_workflow: case ${case}: the log has\n  ${text}\nlog:\n${log_text}")
        endif()
    endforeach()
endfunction()

set(missing_dependency_plugin ${troubleshooting_dir}/missing_dependency/libexample_missing_dependency_plugin.so)
troubleshoot(missing_dependency
    LOADER_ARGS --expect-not-loaded ${missing_dependency_plugin}
    EXPECT "Error loading plugin from [${missing_dependency_plugin}]: libexample_missing_runtime.so: cannot open shared object file")
troubleshoot(throwing_handle
    LOADER_ARGS --expect-no-engine EXAMPLE_THROWING_HANDLE_ENGINE
    EXPECT "Failed to create handle for plugin 'example_throwing_handle_plugin'"
           "cannot initialize the device runtime: libexample_device_runtime_that_is_not_installed.so.1")
troubleshoot(null_handle
    LOADER_ARGS --expect-no-engine EXAMPLE_NULL_HANDLE_ENGINE
    EXPECT "Plugin 'example_null_handle_plugin' returned null handle")
if(collision_expected)
    troubleshoot(collision
        LOADER_ARGS --expect-engine EXAMPLE_COLLISION_A_ENGINE --expect-no-engine EXAMPLE_COLLISION_B_ENGINE
        EXPECT "Plugin 'example_collision_b_plugin' returned a handle that collides with another plugin."
               "This may indicate a symbol collision between plugins."
               "Ensure all plugins are built with -fvisibility=hidden.")
else()
    troubleshoot(collision
        LOADER_ARGS --expect-engine EXAMPLE_COLLISION_A_ENGINE --expect-engine EXAMPLE_COLLISION_B_ENGINE
        REJECT "collides")
endif()
# The guide's hint: a colliding plugin loads fine in isolation.
troubleshoot(collision_b_alone PATH ${troubleshooting_dir}/collision/libexample_collision_b_plugin.so
    LOADER_ARGS --expect-engine EXAMPLE_COLLISION_B_ENGINE
    REJECT "collides")
# The guide's solution: the same two plugins built with hidden visibility and the export map.
troubleshoot(isolated
    LOADER_ARGS --expect-engine EXAMPLE_ISOLATED_A_ENGINE --expect-engine EXAMPLE_ISOLATED_B_ENGINE
    REJECT "collides" "Failed to create handle" "returned null handle")

string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
message(STATUS "plugin_workflow: passed in ${seconds} s")
