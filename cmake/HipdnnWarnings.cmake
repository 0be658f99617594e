# Warnings are errors for every target defined in this project.
add_compile_options(
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wall>
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wextra>
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wpedantic>
    $<$<COMPILE_LANGUAGE:C,CXX>:-Werror>
)

# Shared libraries are linked with --no-undefined so a missing symbol fails the build rather than
# a later dlopen. Sanitized builds leave the runtime's symbols to the executable, so they skip it.
set(HIPDNN_NO_UNDEFINED_LINK_OPTION -Wl,--no-undefined)

# Sanitizers apply to every target so that plugins and tests are instrumented alike.
function(hipdnn_enable_sanitizers sanitizers)
    if(NOT sanitizers)
        return()
    endif()
    set(HIPDNN_NO_UNDEFINED_LINK_OPTION "" PARENT_SCOPE)
    list(JOIN sanitizers "," joined)
    add_compile_options(-fsanitize=${joined} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${joined})
    set(HIPDNN_SANITIZED ON PARENT_SCOPE)
    # What a project built against the sanitized install (tests/plugin_workflow) compiles and links
    # with: its objects meet the sanitizer runtimes' symbols in our libraries.
    set(HIPDNN_SANITIZER_FLAGS "-fsanitize=${joined} -fno-omit-frame-pointer" PARENT_SCOPE)
endfunction()
