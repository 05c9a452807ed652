# CUPTI's runtime or driver API callback ids as its cbid header lists them, read at configure
# time: rocprof_cupti_callback_ids(<include dir> RUNTIME|DRIVER <out var>) sets <out var> to a
# list of "<cbid>=<name>" entries (cudaGetDevice_v3020, cuCtxGetCurrent; INVALID, SIZE and
# FORCE_INT left out), empty when the header is not there. Used by the CLI (the names
# --cuda-api-include/-exclude accept) and the CUDA plugin (names before libcupti is loaded).
function(rocprof_cupti_callback_ids include_dir domain out_var)
  set(_entries "")
  string(TOLOWER ${domain} _lower)
  set(_header ${include_dir}/cupti_${_lower}_cbid.h)
  if(include_dir AND EXISTS ${_header})
    file(STRINGS ${_header} _ids REGEX "CUPTI_${domain}_TRACE_CBID_[A-Za-z0-9_]+ *= *[0-9]+")
    foreach(_id IN LISTS _ids)
      string(REGEX REPLACE ".*CUPTI_${domain}_TRACE_CBID_([A-Za-z0-9_]+) *= *([0-9]+).*"
                           "\\2=\\1" _entry "${_id}")
      if(NOT _entry MATCHES "=(INVALID|SIZE|FORCE_INT)$")
        list(APPEND _entries "${_entry}")
      endif()
    endforeach()
  endif()
  set(${out_var} "${_entries}" PARENT_SCOPE)
endfunction()
