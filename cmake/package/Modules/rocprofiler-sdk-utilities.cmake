# Helpers a project that found rocprofiler-sdk can call (the names of ROCm's package). This
# implementation profiles NVIDIA GPUs: architectures are CUDA's sm_XX.
include_guard(GLOBAL)

# rocprofiler_sdk_get_gfx_architectures(<var> [ECHO] [PREFIX <text>] [DELIM <text>])
# Sets <var> to the architectures of the GPUs of this machine (e.g. "sm_90"), empty when there
# is none or no driver to ask. ECHO prints them.
function(rocprofiler_sdk_get_gfx_architectures out_var)
  cmake_parse_arguments(ARG "ECHO" "PREFIX;DELIM" "" ${ARGN})
  if(NOT DEFINED ARG_DELIM)
    set(ARG_DELIM ", ")
  endif()
  set(archs)
  find_program(ROCPROFILER_SDK_NVIDIA_SMI nvidia-smi)
  if(ROCPROFILER_SDK_NVIDIA_SMI)
    execute_process(COMMAND ${ROCPROFILER_SDK_NVIDIA_SMI} --query-gpu=compute_cap
                            --format=csv,noheader
                    RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" capabilities "${text}")
      foreach(cc ${capabilities})
        string(REPLACE "." "" digits "${cc}")
        list(APPEND archs "sm_${digits}")
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out_var} "${archs}" PARENT_SCOPE)
  if(ARG_ECHO)
    string(REPLACE ";" "${ARG_DELIM}" shown "${archs}")
    message(STATUS "${ARG_PREFIX}System architectures: ${shown}")
  endif()
endfunction()

# rocprofiler_sdk_pc_sampling_disabled(<var> [ECHO] [PREFIX <text>])
# TRUE: this build has no PC sampling service yet.
function(rocprofiler_sdk_pc_sampling_disabled out_var)
  cmake_parse_arguments(ARG "ECHO" "PREFIX" "" ${ARGN})
  set(${out_var} TRUE PARENT_SCOPE)
  if(ARG_ECHO)
    message(STATUS "${ARG_PREFIX}PC sampling is not available in this build")
  endif()
endfunction()

# rocprofiler_sdk_pc_sampling_stochastic_disabled(<var> [ECHO] [PREFIX <text>])
function(rocprofiler_sdk_pc_sampling_stochastic_disabled out_var)
  cmake_parse_arguments(ARG "ECHO" "PREFIX" "" ${ARGN})
  set(${out_var} TRUE PARENT_SCOPE)
  if(ARG_ECHO)
    message(STATUS "${ARG_PREFIX}Stochastic PC sampling is not available in this build")
  endif()
endfunction()
