// What every dlsym'd CUPTI wrapper needs (counters/range_profiler_api.cpp,
// pm_sampling/pm_sampling_api.cpp): parameter structs with their structSize set, symbol
// resolution, and CUPTI's text of a result.
#pragma once

#include <cupti.h>
#include <dlfcn.h>

#include <cstddef>

namespace rocprof::cuda {

// A CUPTI profiler parameter struct, zeroed, with structSize set: ROCPROF_CUPTI_PARAMS(T).
template <class Params>
Params cupti_params(size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}
#define ROCPROF_CUPTI_PARAMS(type) ::rocprof::cuda::cupti_params<type>(type##_STRUCT_SIZE)

template <typename F>
bool resolve_symbol(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  return out != nullptr;
}

// CUPTI's name of a result through its cuptiGetResultString entry.
inline const char* cupti_result_text(decltype(&::cuptiGetResultString) get, CUptiResult r) {
  const char* s = nullptr;
  return get != nullptr && get(r, &s) == CUPTI_SUCCESS && s != nullptr ? s : "unknown";
}

}  // namespace rocprof::cuda
