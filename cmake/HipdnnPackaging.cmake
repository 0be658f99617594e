# hipdnn_install_package(PACKAGE <name> TARGETS <targets...> [CONFIG_TEMPLATE <file.in>])
# Installs the targets, exports them as <name>::<target> and writes <name>Config.cmake and
# <name>ConfigVersion.cmake under <libdir>/cmake/<name>. The config template (default: a generic
# one that includes the targets file) may add find_dependency() calls and variables.
include(CMakePackageConfigHelpers)
set(HIPDNN_PACKAGING_DIR ${CMAKE_CURRENT_LIST_DIR})

function(hipdnn_install_package)
    cmake_parse_arguments(ARG "" "PACKAGE;CONFIG_TEMPLATE" "TARGETS" ${ARGN})
    if(NOT ARG_CONFIG_TEMPLATE)
        set(ARG_CONFIG_TEMPLATE ${HIPDNN_PACKAGING_DIR}/PackageConfig.cmake.in)
    endif()
    set(HIPDNN_PACKAGE_NAME ${ARG_PACKAGE})
    set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/${ARG_PACKAGE})
    install(TARGETS ${ARG_TARGETS} EXPORT ${ARG_PACKAGE}Targets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    install(EXPORT ${ARG_PACKAGE}Targets NAMESPACE ${ARG_PACKAGE}:: DESTINATION ${config_dir})
    configure_package_config_file(${ARG_CONFIG_TEMPLATE}
        ${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}Config.cmake
        INSTALL_DESTINATION ${config_dir}
        PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
    write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}ConfigVersion.cmake
        VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}Config.cmake
        ${CMAKE_CURRENT_BINARY_DIR}/${ARG_PACKAGE}ConfigVersion.cmake
        DESTINATION ${config_dir})
endfunction()
