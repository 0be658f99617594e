# Warnings are errors for every target defined in this project.
add_compile_options(
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wall>
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wextra>
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wpedantic>
    $<$<COMPILE_LANGUAGE:C,CXX>:-Werror>
)

# Sanitizers apply to every target so that plugins and tests are instrumented alike.
function(hipdnn_enable_sanitizers sanitizers)
    if(NOT sanitizers)
        return()
    endif()
    list(JOIN sanitizers "," joined)
    add_compile_options(-fsanitize=${joined} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${joined})
    set(HIPDNN_SANITIZED ON PARENT_SCOPE)
endfunction()
