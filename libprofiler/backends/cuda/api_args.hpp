// The arguments of CUDA runtime and driver API calls: for every CUPTI callback id with a
// parameter struct, each argument's name, declared type, offset and formatter. The tables are
// generated at build time from the toolkit's headers (gen_api_args.py); this file reads them.
// Used by the ABI's iterate_args (rocprofiler_iterate_*_args) and by the buffer record, which
// carries a copy of the parameter struct (abi_sink.cpp).
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <cstddef>
#include <cstdint>

#include "cuda_events.hpp"

namespace rocprof::cuda {

// Writes the value at `value` as text into out[size] (NUL-terminated), following pointers at
// most max_deref times; returns how many times it did.
using arg_formatter = int32_t (*)(const void* value, int32_t max_deref, char* out, size_t size);

struct api_arg {
  const char* name;  // as declared in the parameter struct
  const char* type;  // as declared, e.g. "size_t*", "enum cudaMemcpyKind"
  uint32_t offset;   // in the parameter struct
  int32_t indirection;
  arg_formatter format;
};

struct api_signature {
  uint32_t cbid;
  uint32_t params_size;  // sizeof the parameter struct
  const api_arg* args;
  uint32_t count;
};

// Generated (gen_api_args.py).
extern const api_signature runtime_signatures[];
extern const size_t runtime_signature_count;
extern const api_signature driver_signatures[];
extern const size_t driver_signature_count;

// The signature of callback id `cbid`, nullptr when it has no parameter struct. O(1).
const api_signature* find_signature(api_domain domain, uint32_t cbid);

// Calls `callback` per argument of the call whose parameter struct is at `params`. params_size:
// the bytes available there (a copy in a buffer record), 0 for the live struct of a call in
// progress. Pointers are followed at most max_deref times (never for a copy).
rocprofiler_status_t iterate_api_args(api_domain domain, uint32_t cbid, const void* params,
                                      uint64_t params_size, int32_t max_deref,
                                      rocprof_backend_arg_cb_t callback, void* data);

}  // namespace rocprof::cuda
