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
//
// Correlation ids: on the H100, with the catch-all callbacks switched off and the GPU activity
// kinds switched on inside that first entry's callback, every later callback and GPU record
// carried one CUPTI correlation id. So by default (deferral_plan below) the GPU kinds a tool
// may ask for are enabled at start(), inside InitializeInjection as in every other start mode,
// and narrowed to what the tools asked for once they started; and the catch-all callbacks stay
// on until the EXIT of the call whose entry ran the hook, so that no call is left with an entry
// CUPTI called back for and an exit it does not. ROCPROF_CUDA_DEFERRED_ACTIVITY=hook and
// ROCPROF_CUDA_DEFERRED_DOMAINS_OFF=enter|exit|never select the other ways, for the GPU
// diagnosis (tests/integration/samples/check_deferred_correlation.py).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "callback_guard.hpp"
#include "cupti_check.hpp"
#include "cupti_session.hpp"

namespace rocprof::cuda {
namespace {

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, value) == 0;
}

// The GPU activity kinds a tool of the deferred start may ask for (records of kinds it did not
// ask for are disabled again once it has started; meanwhile the sink drops them).
constexpr CUpti_ActivityKind early_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMORY2};

}  // namespace

deferral_plan deferral_plan::from_env() {
  deferral_plan p;
  p.early_activities = !env_is("ROCPROF_CUDA_DEFERRED_ACTIVITY", "hook");
  if (env_is("ROCPROF_CUDA_DEFERRED_DOMAINS_OFF", "enter")) p.domains_off = off_at::enter;
  if (env_is("ROCPROF_CUDA_DEFERRED_DOMAINS_OFF", "never")) p.domains_off = off_at::never;
  return p;
}

void cupti_session::defer_until_first_call(std::function<void()> hook, deferral_plan plan) {
  if (state_ != session_state::idle || !hook) return;
  first_call_hook_ = std::move(hook);
  plan_ = plan;
  first_call_armed_.store(true, std::memory_order_release);
  deferring_.store(true, std::memory_order_release);
}

void cupti_session::start_deferral() {
  for (CUpti_CallbackDomain d : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API})
    ROCPROF_CUPTI_CALL(api_, api_.enable_domain(1, subscriber_, d));
  // Modules that load before the tools start are still reported: the core keeps code objects
  // and hands them to each context that starts later (what the tools' code-object tracing and
  // the kernel names of the trace need).
  trace_code_objects_ = true;
  enable_resource_callbacks();
  if (!plan_.early_activities) return;
  // Counted as enabled: the tools' request, inside the hook, then enables none of them again.
  for (CUpti_ActivityKind kind : early_kinds) {
    if (!ROCPROF_CUPTI_CALL(api_, api_.activity_enable(kind))) continue;
    early_kinds_.push_back(kind);
    enabled_kinds_.push_back(kind);
  }
}

bool cupti_session::api_enabled(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) const {
  const auto& enabled = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? enabled_runtime_ : enabled_driver_;
  return cbid < max_cbid && enabled.test(cbid);
}

void cupti_session::switch_catch_all_off() {
  for (CUpti_CallbackDomain d : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API})
    ROCPROF_CUPTI_CALL(api_, api_.enable_domain(0, subscriber_, d));
  // A domain switched off loses its per-call callbacks too: those the tools need come back.
  for (CUpti_CallbackDomain d : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API})
    for (uint32_t cbid = 1; cbid < max_cbid; ++cbid)
      if (api_enabled(d, cbid))
        ROCPROF_CUPTI_CALL(api_, api_.enable_callback(1, subscriber_, d, cbid));
  deferring_.store(false, std::memory_order_release);
}

void cupti_session::narrow_early_activities() {
  if (early_kinds_.empty()) return;
  const std::vector<CUpti_ActivityKind> wanted = wanted_kinds();
  for (CUpti_ActivityKind kind : early_kinds_) {
    if (std::find(wanted.begin(), wanted.end(), kind) != wanted.end()) continue;
    api_.activity_disable(kind);
    enabled_kinds_.erase(std::find(enabled_kinds_.begin(), enabled_kinds_.end(), kind));
  }
  early_kinds_.clear();
}

bool cupti_session::pass_deferral(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                  const CUpti_CallbackData& cb) {
  const bool enter = cb.callbackSite == CUPTI_API_ENTER;
  if (first_call_armed_.load(std::memory_order_acquire)) {
    // Exits of calls that began before the hook ran (cuInit itself, the runtime call that made
    // it) are not the tools' business: their entries were never seen.
    if (!enter) return false;
    // cuInit's own callbacks may come while the driver is still initialising.
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuInit)
      return false;
    // Another thread ran it meanwhile: processed when the tools asked for it.
    if (!first_call_armed_.exchange(false)) return api_enabled(domain, cbid);
    if (plan_.domains_off == deferral_plan::off_at::enter) {
      // The catch-all callbacks go first, the tools' initialisation (which reconfigures this
      // session when it starts contexts) comes after.
      switch_catch_all_off();
    } else {
      hook_thread_ = std::this_thread::get_id();
      below_hook_call_.store(0, std::memory_order_release);
    }
    {
      // The tools' own CUDA calls (device queries) are not traced and do not come back here.
      backend_call_scope scope;
      first_call_hook_();
    }
    reconfigure();
    narrow_early_activities();
    // Processed as usual only when its exit will be processed too (enabled now).
    return api_enabled(domain, cbid);
  }
  // The catch-all callbacks are still on: only what the tools asked for is processed.
  if (below_hook_call_.load(std::memory_order_acquire) >= 0 &&
      std::this_thread::get_id() == hook_thread_) {
    if (enter) {
      below_hook_call_.fetch_add(1, std::memory_order_relaxed);
    } else if (below_hook_call_.fetch_sub(1, std::memory_order_relaxed) == 0) {
      // The EXIT of the call that ran the hook.
      if (plan_.domains_off == deferral_plan::off_at::exit) switch_catch_all_off();
    }
  }
  return api_enabled(domain, cbid);
}

}  // namespace rocprof::cuda
