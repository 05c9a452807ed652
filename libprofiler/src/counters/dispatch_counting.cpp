#include "counters/dispatch_counting.hpp"

#include <cstring>
#include <vector>

#include "backend_loader.hpp"
#include "buffer.hpp"
#include "counters/counter_config.hpp"
#include "counters/counter_evaluate.hpp"
#include "guarded.hpp"
#include "pc_sampling.hpp"
#include "registration.hpp"

namespace rocprof::core::counters {
namespace {

struct counting_service {
  rocprofiler_dispatch_counting_service_cb_t dispatch_callback = nullptr;
  void* dispatch_data = nullptr;
  rocprofiler_dispatch_counting_record_cb_t record_callback = nullptr;
  void* record_data = nullptr;
  buffer* target = nullptr;  // the buffered form
};

// Written only while configuration is open, read afterwards without a lock.
counting_service g_services[max_contexts];

rocprofiler_dispatch_counting_service_data_t service_data(const rocprof_counted_dispatch_t& d,
                                                          rocprofiler_timestamp_t start,
                                                          rocprofiler_timestamp_t end) {
  rocprofiler_dispatch_counting_service_data_t data{};
  data.size = sizeof(data);
  data.correlation_id = d.correlation_id;
  data.start_timestamp = start;
  data.end_timestamp = end;
  data.dispatch_info = d.dispatch_info;
  return data;
}

// The config's counters for one dispatch, as records.
bool evaluate(const counter_config& config, const rocprof_counted_dispatch_t& d,
              const double* values, uint64_t count,
              std::vector<rocprofiler_counter_record_t>& out) {
  if (!evaluate_config(config, values, count, out)) return false;
  for (rocprofiler_counter_record_t& r : out) {
    r.dispatch_id = d.dispatch_info.dispatch_id;
    r.user_data = d.user_data;
    r.agent_id = d.dispatch_info.agent_id;
  }
  return true;
}

// Header then values into the calling thread's lane of the service's buffer.
void deliver_to_buffer(buffer* b, const rocprofiler_dispatch_counting_service_data_t& data,
                       const std::vector<rocprofiler_counter_record_t>& records) {
  thread_state* st = current_thread();
  if (st == nullptr) return;  // a thread in its exit: nothing can be written any more
  constexpr uint32_t category = ROCPROFILER_BUFFER_CATEGORY_COUNTERS;
  rocprofiler_dispatch_counting_service_record_t header{};
  header.size = sizeof(header);
  header.num_records = records.size();
  header.correlation_id = data.correlation_id;
  header.start_timestamp = data.start_timestamp;
  header.end_timestamp = data.end_timestamp;
  header.dispatch_info = data.dispatch_info;
  const reservation room = buffer_reserve(
      b, st, category, ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER, sizeof(header));
  if (room.record == nullptr) return;
  std::memcpy(room.record, &header, sizeof(header));
  buffer_commit(room);
  for (const rocprofiler_counter_record_t& r : records) {
    const reservation slot =
        buffer_reserve(b, st, category, ROCPROFILER_COUNTER_RECORD_VALUE, sizeof(r));
    if (slot.record == nullptr) continue;
    std::memcpy(slot.record, &r, sizeof(r));
    buffer_commit(slot);
  }
}

rocprofiler_status_t configure(rocprofiler_context_id_t context_id, const counting_service& svc) {
  if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
  context* ctx = find_context(context_id);
  if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
  if (svc.dispatch_callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::recursive_mutex> lock(config_mutex());
  if (ctx->counters) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  // CUPTI's PC sampling and range profiler exclude each other (probe H8); rocprofiler-sdk
  // refuses the combination too. pc_sampling.cpp checks the other order.
  if (pc_sampling_configured()) return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
  if (load_counter_backends() == 0) return ROCPROFILER_STATUS_ERROR_BACKEND_NOT_LOADED;
  g_services[ctx->index] = svc;
  ctx->counters = true;
  if (ctx->active.load()) contexts_changed();
  return ROCPROFILER_STATUS_SUCCESS;
}

}  // namespace

void refresh_counting_context() {
  uint32_t found = 0;
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n && found == 0; ++i)
    if (g_contexts[i]->counters && g_contexts[i]->active.load()) found = i + 1;
  g_counting_context.store(found, std::memory_order_release);
}

bool counting_conflict(const context& starting) {
  if (!starting.counters) return false;
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i) {
    const context* other = g_contexts[i];
    if (other != &starting && other->counters && other->active.load()) return true;
  }
  return false;
}

int counting_active() {
  return g_counting_context.load(std::memory_order_relaxed) != 0 ? 1 : 0;
}

uint64_t counting_dispatch_begin(rocprof_counted_dispatch_t* d,
                                 const rocprofiler_kernel_dispatch_info_t* info,
                                 rocprofiler_async_correlation_id_t correlation_id) {
  std::memset(d, 0, sizeof(*d));
  d->size = sizeof(*d);
  const uint32_t active = g_counting_context.load(std::memory_order_acquire);
  if (active == 0 || info == nullptr) return 0;
  const counting_service& svc = g_services[active - 1];
  d->correlation_id = correlation_id;
  d->dispatch_info = *info;
  rocprofiler_counter_config_id_t chosen{0};
  rocprofiler_user_data_t user{};
  user.value = 0;
  const rocprofiler_dispatch_counting_service_data_t data = service_data(*d, 0, 0);
  guarded_call("dispatch counting callback",
               [&] { svc.dispatch_callback(data, &chosen, &user, svc.dispatch_data); });
  if (chosen.handle == 0) return 0;
  const counter_config* config = find_config(chosen.handle);
  if (config == nullptr || config->destroyed.load()) {
    warn_once("counting-profile",
              "a dispatch callback chose an unknown or destroyed counter "
              "config (ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND)");
    return 0;
  }
  if (config->agent.handle != info->agent_id.handle) {
    warn_once("counting-agent",
              "a dispatch callback chose a counter config of another agent "
              "(ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH): not counted");
    return 0;
  }
  d->config = config->id;
  d->context_index = active - 1;
  d->user_data = user;
  d->counter_set = config->counter_set;
  return d->counter_set;
}

void counting_dispatch_end(const rocprof_counted_dispatch_t* d, const double* values,
                           uint64_t count, rocprofiler_timestamp_t start,
                           rocprofiler_timestamp_t end) {
  if (d == nullptr || d->config == 0) return;
  const counter_config* config = find_config(d->config);
  if (config == nullptr) return;
  if (values == nullptr && !config->native.empty()) {
    warn_once("counting-lost", "counter values of a dispatch could not be collected");
    return;
  }
  std::vector<rocprofiler_counter_record_t> records;
  if (!evaluate(*config, *d, values, count, records)) return;
  const counting_service& svc = g_services[d->context_index];
  const rocprofiler_dispatch_counting_service_data_t data = service_data(*d, start, end);
  if (svc.record_callback != nullptr) {
    guarded_call("dispatch counting record callback", [&] {
      svc.record_callback(data, records.data(), records.size(), d->user_data, svc.record_data);
    });
  } else if (svc.target != nullptr && !svc.target->destroyed.load()) {
    deliver_to_buffer(svc.target, data, records);
  }
}

}  // namespace rocprof::core::counters

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_buffer_dispatch_counting_service(
    rocprofiler_context_id_t context_id, rocprofiler_buffer_id_t buffer_id,
    rocprofiler_dispatch_counting_service_cb_t callback, void* callback_data_args) {
  return guarded(__func__, [&] {
    buffer* b = find_buffer(buffer_id);
    if (configuration_open() && find_context(context_id) != nullptr && b == nullptr)
      return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    counters::counting_service svc;
    svc.dispatch_callback = callback;
    svc.dispatch_data = callback_data_args;
    svc.target = b;
    return counters::configure(context_id, svc);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t context_id,
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback, void* dispatch_callback_args,
    rocprofiler_dispatch_counting_record_cb_t record_callback, void* record_callback_args) {
  return guarded(__func__, [&] {
    if (record_callback == nullptr && configuration_open() && find_context(context_id) != nullptr)
      return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    counters::counting_service svc;
    svc.dispatch_callback = dispatch_callback;
    svc.dispatch_data = dispatch_callback_args;
    svc.record_callback = record_callback;
    svc.record_data = record_callback_args;
    return counters::configure(context_id, svc);
  });
}

}  // extern "C"
