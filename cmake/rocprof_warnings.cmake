# Warnings for our own targets: call rocprof_target_warnings(<target>) on each target we write.
add_library(rocprof_warnings INTERFACE)
add_library(rocprof::warnings ALIAS rocprof_warnings)
target_compile_options(rocprof_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
                             -Wcast-align -Wunused -Woverloaded-virtual -Wnull-dereference
                             -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic -Wshadow>)
if(ROCPROF_WERROR)
  target_compile_options(rocprof_warnings INTERFACE -Werror)
endif()

function(rocprof_target_warnings target)
  target_link_libraries(${target} PRIVATE rocprof::warnings)
endfunction()

# Sanitizers apply to everything we build (ROCPROF_SANITIZE=address;undefined or thread).
if(ROCPROF_SANITIZE)
  string(REPLACE ";" "," _rocprof_san "${ROCPROF_SANITIZE}")
  add_compile_options(-fsanitize=${_rocprof_san} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=${_rocprof_san})
endif()
