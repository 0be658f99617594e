# hipdnn_plugin_sdk_configure_plugin(<target>)
# Makes a plugin's shared library export exactly the plugin API: hidden visibility for the
# plugin's own code, and a linker version script so that libstdc++ template instantiations
# (which -fvisibility=hidden alone leaves exported as weak symbols) stay local too.
function(hipdnn_plugin_sdk_configure_plugin target)
    # Resolved from this file's location so that it works from any directory and when installed.
    set(HIPDNN_PLUGIN_EXPORTS_MAP ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/hipdnn_plugin_exports.map)
    set_target_properties(${target} PROPERTIES
        CXX_VISIBILITY_PRESET hidden
        C_VISIBILITY_PRESET hidden
        VISIBILITY_INLINES_HIDDEN ON
        POSITION_INDEPENDENT_CODE ON)
    target_link_options(${target} PRIVATE "LINKER:--version-script=${HIPDNN_PLUGIN_EXPORTS_MAP}")
    # GCC emits STB_GNU_UNIQUE symbols for some inline statics; glibc never unmaps a library
    # holding one, which would keep a plugin loaded after the backend unloads it.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        target_compile_options(${target} PRIVATE -fno-gnu-unique)
    endif()
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${HIPDNN_PLUGIN_EXPORTS_MAP})
endfunction()
