#include "stream_capture.hpp"

#include <dlfcn.h>

#include <cstring>

#include "api_args.hpp"
#include "callback_guard.hpp"
#include "cupti_dl_helpers.hpp"

namespace rocprof::cuda {
namespace {

using is_capturing_fn = decltype(&::cuStreamIsCapturing);

// Resolved once, from the driver the application already loaded (its launches are what we
// look at, so it is there by the time one is asked about).
is_capturing_fn driver_is_capturing() {
  static const is_capturing_fn fn = [] {
    is_capturing_fn f = nullptr;
    if (void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD))
      resolve_symbol(cuda, "cuStreamIsCapturing", f);
    return f;
  }();
  return fn;
}

}  // namespace

bool stream_argument(api_domain domain, uint32_t cbid, const void* params, CUstream& stream) {
  const api_signature* sig = find_signature(domain, cbid);
  if (sig == nullptr || params == nullptr) return false;
  for (uint32_t i = 0; i < sig->count; ++i) {
    const api_arg& a = sig->args[i];
    const bool named = std::strcmp(a.name, "stream") == 0 || std::strcmp(a.name, "hStream") == 0;
    const bool a_stream =
        std::strcmp(a.type, "cudaStream_t") == 0 || std::strcmp(a.type, "CUstream") == 0;
    if (!named || !a_stream) continue;
    std::memcpy(&stream, static_cast<const char*>(params) + a.offset, sizeof(stream));
    return true;
  }
  return false;
}

bool launches_into_capture(api_domain domain, uint32_t cbid, const void* params) {
  CUstream stream = nullptr;
  if (!stream_argument(domain, cbid, params, stream)) return false;
  const is_capturing_fn is_capturing = driver_is_capturing();
  if (is_capturing == nullptr) return false;
  const backend_call_scope own_call;
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return is_capturing(stream, &status) == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_NONE;
}

}  // namespace rocprof::cuda
