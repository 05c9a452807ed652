#include "api_args.hpp"

#include <array>

namespace rocprof::cuda {
namespace {

// Callback ids of CUDA 13 stay below this (runtime 523, driver 807); larger ids have no entry.
constexpr uint32_t max_cbid = 1024;

using signature_index = std::array<const api_signature*, max_cbid>;

signature_index build_index(const api_signature* signatures, size_t count) {
  signature_index index{};
  for (size_t i = 0; i < count; ++i)
    if (signatures[i].cbid < max_cbid) index[signatures[i].cbid] = &signatures[i];
  return index;
}

}  // namespace

const api_signature* find_signature(api_domain domain, uint32_t cbid) {
  // Built once, on first use; read-only afterwards.
  static const signature_index runtime = build_index(runtime_signatures, runtime_signature_count);
  static const signature_index driver = build_index(driver_signatures, driver_signature_count);
  if (cbid >= max_cbid) return nullptr;
  return domain == api_domain::runtime ? runtime[cbid] : driver[cbid];
}

rocprofiler_status_t iterate_api_args(api_domain domain, uint32_t cbid, const void* params,
                                      uint64_t params_size, int32_t max_deref,
                                      rocprof_backend_arg_cb_t callback, void* data) {
  const api_signature* sig = find_signature(domain, cbid);
  if (sig == nullptr) return ROCPROFILER_STATUS_SUCCESS;  // a call without arguments
  // A copy must be the whole struct; its pointers point into a call that has returned.
  if (params_size != 0 && params_size != sig->params_size)
    return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
  if (params_size != 0) max_deref = 0;
  const auto* base = static_cast<const unsigned char*>(params);
  for (uint32_t i = 0; i < sig->count; ++i) {
    const api_arg& arg = sig->args[i];
    char text[320];
    const int32_t derefs = arg.format(base + arg.offset, max_deref, text, sizeof(text));
    if (callback(i, base + arg.offset, arg.indirection, arg.type, arg.name, text, derefs, data) !=
        0)
      break;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace rocprof::cuda
