// Core records -> v2 records (rocprofiler_record_profiler_t, rocprofiler_record_tracer_t).
#include "routes.hpp"

#include <atomic>

#include "code_objects.hpp"

namespace rocprof::v2 {
namespace {

// HIP_OPS / HSA_OPS operation ids of async work (README: "records").
constexpr uint32_t k_op_kernel = 0;
constexpr uint32_t k_op_copy = 1;
constexpr uint32_t k_op_set = 2;

uint64_t next_record_id() {
  static std::atomic<uint64_t> id{1};
  return id.fetch_add(1, std::memory_order_relaxed);
}

bool wants(uint32_t domains, rocprofiler_tracer_activity_domain_t d) {
  return (domains >> d) & 1u;
}

// The API_TRACE domain of an event for a route, or ACTIVITY_DOMAIN_NUMBER when it takes none.
rocprofiler_tracer_activity_domain_t domain_of(const route& r, event_class what) {
  switch (what) {
    case event_class::runtime_api:
      return wants(r.domains, ACTIVITY_DOMAIN_HIP_API) ? ACTIVITY_DOMAIN_HIP_API
                                                       : ACTIVITY_DOMAIN_NUMBER;
    case event_class::driver_api:
      return wants(r.domains, ACTIVITY_DOMAIN_HSA_API) ? ACTIVITY_DOMAIN_HSA_API
                                                       : ACTIVITY_DOMAIN_NUMBER;
    case event_class::marker:
      return wants(r.domains, ACTIVITY_DOMAIN_ROCTX) ? ACTIVITY_DOMAIN_ROCTX
                                                     : ACTIVITY_DOMAIN_NUMBER;
    default:
      if (wants(r.domains, ACTIVITY_DOMAIN_HIP_OPS)) return ACTIVITY_DOMAIN_HIP_OPS;
      return wants(r.domains, ACTIVITY_DOMAIN_HSA_OPS) ? ACTIVITY_DOMAIN_HSA_OPS
                                                       : ACTIVITY_DOMAIN_NUMBER;
  }
}

bool is_api(event_class what) {
  return what == event_class::runtime_api || what == event_class::driver_api;
}

const char* name_of(const core_event& e) {
  if (e.what == event_class::kernel) return code_objects::kernel_name(e.kernel_id);
  return e.name;
}

bool function_selected(const route& r, const core_event& e) {
  return r.functions.empty() || !is_api(e.what) ||
         (e.name != nullptr && r.functions.count(e.name) != 0);
}

rocprofiler_record_tracer_t tracer_record(const core_event& e,
                                          rocprofiler_tracer_activity_domain_t domain,
                                          rocprofiler_api_tracing_phase_t phase) {
  rocprofiler_record_tracer_t t{};
  t.header.kind = ROCPROFILER_TRACER_RECORD;
  t.header.id.handle = next_record_id();
  t.external_id.id = e.external_id;
  t.domain = domain;
  switch (e.what) {
    case event_class::kernel:
      t.operation_id.id = k_op_kernel;
      break;
    case event_class::memory_copy:
      t.operation_id.id = k_op_copy;
      break;
    case event_class::memory_set:
      t.operation_id.id = k_op_set;
      break;
    default:
      t.operation_id.id = e.operation;
      break;
  }
  t.correlation_id.value = e.correlation_id;
  t.timestamps.begin.value = e.begin_ns;
  t.timestamps.end.value = e.end_ns;
  t.agent_id.handle = e.agent_id;
  t.queue_id.handle = e.queue_id;
  t.thread_id.value = static_cast<uint32_t>(e.thread_id);
  t.phase = phase;
  t.name = name_of(e);
  return t;
}

rocprofiler_record_profiler_t profiler_record(const core_event& e) {
  rocprofiler_record_profiler_t p{};
  p.header.kind = ROCPROFILER_PROFILER_RECORD;
  p.header.id.handle = next_record_id();
  p.kernel_id.handle = e.kernel_id;
  p.gpu_id.handle = e.agent_id;
  p.queue_id.handle = e.queue_id;
  p.timestamps.begin.value = e.begin_ns;
  p.timestamps.end.value = e.end_ns;
  p.kernel_properties.grid_size = e.grid_size;
  p.kernel_properties.workgroup_size = e.workgroup_size;
  p.kernel_properties.lds_size = e.lds_size;
  p.kernel_properties.scratch_size = e.scratch_size;
  p.thread_id.value = static_cast<uint32_t>(e.thread_id);
  p.correlation_id.value = e.correlation_id;
  return p;
}

bool kernel_selected(const route& r, const core_event& e) {
  if (r.kernel_names.empty()) return true;
  const char* name = code_objects::kernel_name(e.kernel_id);
  if (name == nullptr) return false;
  for (const std::regex& pattern : r.kernel_names)
    if (std::regex_search(name, pattern)) return true;
  return false;
}

}  // namespace

void route_event(const session_routes& active, const core_event& event) {
  for (const route& r : active.routes) {
    if (r.buffer == nullptr) continue;
    if (r.kind == ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION) {
      if (event.what != event_class::kernel || !kernel_selected(r, event)) continue;
      const rocprofiler_record_profiler_t p = profiler_record(event);
      r.buffer->append(&p, sizeof(p));
    } else if (r.kind == ROCPROFILER_API_TRACE) {
      const rocprofiler_tracer_activity_domain_t domain = domain_of(r, event.what);
      if (domain == ACTIVITY_DOMAIN_NUMBER || !function_selected(r, event)) continue;
      const rocprofiler_record_tracer_t t = tracer_record(event, domain, ROCPROFILER_PHASE_NONE);
      r.buffer->append(&t, sizeof(t));
    }
  }
}

void route_sync_event(const session_routes& active, const core_event& event, bool enter) {
  for (const route& r : active.routes) {
    if (r.sync == nullptr || r.kind != ROCPROFILER_API_TRACE) continue;
    const rocprofiler_tracer_activity_domain_t domain = domain_of(r, event.what);
    if (domain == ACTIVITY_DOMAIN_NUMBER || !function_selected(r, event)) continue;
    r.sync(tracer_record(event, domain, enter ? ROCPROFILER_PHASE_ENTER : ROCPROFILER_PHASE_EXIT),
           active.session);
  }
}

}  // namespace rocprof::v2
