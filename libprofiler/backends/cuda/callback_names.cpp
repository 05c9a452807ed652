#include "callback_names.hpp"

namespace rocprof::cuda {
namespace {

struct callback_name {
  uint32_t cbid;
  const char* name;
};

#include "cupti_callback_names.inc"

template <size_t N>
const char* find(const callback_name (&names)[N], uint32_t cbid) {
  // A few hundred ids, asked while a tool configures: a scan, no order assumed.
  for (const callback_name& n : names)
    if (n.cbid == cbid) return n.name;
  return nullptr;
}

}  // namespace

const char* header_callback_name(CUpti_CallbackDomain domain, uint32_t cbid) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return find(runtime_names, cbid);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) return find(driver_names, cbid);
  return nullptr;
}

}  // namespace rocprof::cuda
