// The session's first-call hook (cupti_session::defer_until_first_call): the core's tools are
// initialised at the first API call after cuInit instead of inside it.
//
// Why: under CUDA_INJECTION64_PATH the driver calls InitializeInjection from inside cuInit.
// A tool initialised there (a preloaded rocprofiler-sdk tool whose core was not initialised
// earlier) may list agents (the plugin's device query calls cuInit and cuDevice* again),
// create counter configs (cuptiProfilerInitialize, cuptiDeviceGetChipName) or start device
// counting (cuptiPmSamplingEnable): driver and profiler work nested in the driver's own
// initialisation, after which the application's CUDA calls failed ("initialization error",
// "no CUDA device"). The first API entry after InitializeInjection returned is an ordinary
// point where CUPTI callbacks may call CUDA: the tools start there, before the application's
// first context exists (contexts, modules and launches all come later).
#include "callback_guard.hpp"
#include "cupti_check.hpp"
#include "cupti_session.hpp"

namespace rocprof::cuda {

void cupti_session::defer_until_first_call(std::function<void()> hook) {
  if (state_ != session_state::idle || !hook) return;
  first_call_hook_ = std::move(hook);
  first_call_armed_.store(true, std::memory_order_release);
}

bool cupti_session::pass_deferral(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                  const CUpti_CallbackData& cb) {
  // Exits of calls that began before the hook ran (cuInit itself, the runtime call that made
  // it) are not the tools' business: their entries were never seen.
  if (cb.callbackSite != CUPTI_API_ENTER) return false;
  // cuInit's own callbacks may come while the driver is still initialising.
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuInit) return false;
  if (!first_call_armed_.exchange(false)) return true;  // another thread ran it meanwhile
  // Back to what the sink asks for: the catch-all callbacks go first, the tools' initialisation
  // (which reconfigures this session when it starts contexts) comes after.
  for (CUpti_CallbackDomain d : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API})
    ROCPROF_CUPTI_CALL(api_, api_.enable_domain(0, subscriber_, d));
  enabled_runtime_.reset();
  enabled_driver_.reset();
  {
    // The tools' own CUDA calls (device queries) are not traced and do not come back here.
    backend_call_scope scope;
    first_call_hook_();
  }
  reconfigure();
  // Processed as usual only when its exit will call back too (enabled now).
  const auto& enabled = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? enabled_runtime_ : enabled_driver_;
  return cbid < max_cbid && enabled.test(cbid);
}

}  // namespace rocprof::cuda
