// What every dlsym'd CUPTI wrapper needs (counters/range_profiler_api.cpp,
// pm_sampling/pm_sampling_api.cpp): parameter structs with their structSize set, symbol
// resolution, CUPTI's text of a result, and the calls both profilers make the same way
// (profiler initialisation, the chip name, the counter availability image).
#pragma once

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

// For an X-macro list of CUPTI functions, in a function returning a pointer with `lib` (the
// cupti_library), `t` (a table with members named as the functions) and `why` in scope:
// LIST(ROCPROF_RESOLVE_CUPTI) resolves each, or says which is missing and returns nullptr.
#define ROCPROF_RESOLVE_CUPTI(name)                 \
  if (!resolve_symbol(lib.handle, #name, t.name)) { \
    why = "libcupti lacks " #name;                  \
    return nullptr;                                 \
  }

// cuptiProfilerInitialize with its parameter struct.
inline CUptiResult cupti_profiler_initialize(decltype(&::cuptiProfilerInitialize) init) {
  auto p = ROCPROF_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
  return init(&p);
}

// The chip name of a device (e.g. "GH100") through cuptiDeviceGetChipName.
inline CUptiResult cupti_chip_name(decltype(&::cuptiDeviceGetChipName) get, size_t device_index,
                                   std::string& chip) {
  auto p = ROCPROF_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  p.deviceIndex = device_index;
  const CUptiResult r = get(&p);
  if (r == CUPTI_SUCCESS && p.pChipName != nullptr) chip = p.pChipName;
  return r;
}

// A counter availability image, asked for twice as CUPTI wants: its size, then its bytes. `p`
// names the device or context already; `get` is the range profiler's or PM sampling's query.
template <class Params, class Get>
CUptiResult cupti_counter_availability(Get get, Params p, std::vector<uint8_t>& image) {
  CUptiResult r = get(&p);  // the size first
  if (r != CUPTI_SUCCESS) return r;
  image.assign(p.counterAvailabilityImageSize, 0);
  p.pCounterAvailabilityImage = image.data();
  r = get(&p);
  image.resize(p.counterAvailabilityImageSize);
  return r;
}

// The calls every dlsym'd profiler wrapper answers the same way, over its table `t_` (members
// cuptiGetResultString, cuptiProfilerInitialize, cuptiDeviceGetChipName): the wrapper derives
// from cupti_profiler_basics<its interface, its table>.
template <class Api, class Table>
class cupti_profiler_basics : public Api {
 public:
  explicit cupti_profiler_basics(Table t) : t_{t} {}
  const char* result_string(CUptiResult r) override {
    return cupti_result_text(t_.cuptiGetResultString, r);
  }
  CUptiResult initialize() override {
    return cupti_profiler_initialize(t_.cuptiProfilerInitialize);
  }
  CUptiResult chip_name(size_t device_index, std::string& chip) override {
    return cupti_chip_name(t_.cuptiDeviceGetChipName, device_index, chip);
  }

 protected:
  Table t_;
};

}  // namespace rocprof::cuda
