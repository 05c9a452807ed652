# Writes OUT: the git revision of SOURCE_DIR as ROCPROF_GIT_REVISION ("unknown" outside a git
# checkout). Run at every build (target rocprof_git_revision), so that `rocprofv3 --version`
# names the commit a build was made from, not the one CMake was configured at; the file is
# rewritten only when the revision changed, so nothing recompiles otherwise.
set(rev "unknown")
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE _rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _rev)
    set(rev "${_rev}")
  endif()
endif()
set(text "#pragma once\n#define ROCPROF_GIT_REVISION \"${rev}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
