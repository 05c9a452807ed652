// The v2 library as a tool of the profiler core (see core_port.hpp): its contexts, their
// callbacks, and the port's functions. With core_table.cpp and core_records.cpp, the only
// files of the library that include rocprofiler-sdk/ headers (through core_sdk.hpp).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core_port.hpp"
#include "core_sdk.hpp"
#include "intern.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace rocprof::v2::core_port {
namespace {

// Kinds recorded into the tracing buffer, with the v2 class each becomes. Kinds no backend
// records are skipped when configured (the core says so once).
struct traced_kind {
  rocprofiler_buffer_tracing_kind_t kind;
  event_class what;
};
constexpr traced_kind k_traced[] = {
    {ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, event_class::runtime_api},
    {ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, event_class::driver_api},
    {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, event_class::marker},
    {ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, event_class::kernel},
    {ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, event_class::memory_copy},
    {ROCPROFILER_BUFFER_TRACING_MEMORY_SET, event_class::memory_set},
};
constexpr rocprofiler_callback_tracing_kind_t k_sync_kinds[] = {
    ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API,
    ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API};

rocprofiler_buffer_tracing_kind_t kind_of(event_class what) {
  for (const traced_kind& k : k_traced)
    if (k.what == what) return k.kind;
  return ROCPROFILER_BUFFER_TRACING_NONE;
}

struct port_state {
  std::atomic<bool> configured{false};
  rocprofiler_context_id_t tracing{};
  rocprofiler_context_id_t sync_api{};
  rocprofiler_context_id_t code_objects{};
  rocprofiler_buffer_id_t buffer{};
};
port_state& state() {
  static auto* s = new port_state();  // leaked: the core's threads use it during exit
  return *s;
}

thread_local bool t_delivering = false;

void deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
             rocprofiler_record_header_t** headers, size_t num_headers, void*, uint64_t) {
  c_boundary::guarded_call("rocprofiler v2 buffer delivery", [&] {
    t_delivering = true;
    std::vector<core_event> events;
    events.reserve(num_headers);
    for (size_t i = 0; i < num_headers; ++i) {
      core_event e;
      if (convert_record(*headers[i], e)) events.push_back(e);
    }
    if (!events.empty()) on_core_events(events.data(), events.size());
    t_delivering = false;
  });
}

void code_object_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*,
                          void*) {
  c_boundary::guarded_call("rocprofiler v2 code objects", [&] {
    if (record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT) return;
    if (record.operation == ROCPROFILER_CODE_OBJECT_LOAD) {
      const auto& d =
          *static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(record.payload);
      if (record.phase == ROCPROFILER_CALLBACK_PHASE_UNLOAD) {
        on_code_object_unload(d.code_object_id, timestamp());
        return;
      }
      core_code_object o;
      o.id = d.code_object_id;
      o.uri = intern(d.uri);
      o.load_base = d.load_base != 0 ? d.load_base : d.memory_base;
      o.load_size = d.load_size;
      if (d.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY) {
        o.memory = reinterpret_cast<const void*>(d.memory_base);
        o.memory_size = d.memory_size;
      }
      o.load_ns = timestamp();
      on_code_object_load(o);
    } else if (record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER &&
               record.phase == ROCPROFILER_CALLBACK_PHASE_LOAD) {
      const auto& d = *static_cast<const rocprofiler_kernel_symbol_data_t*>(record.payload);
      core_kernel_symbol s;
      s.kernel_id = d.kernel_id;
      s.code_object_id = d.code_object_id;
      s.name = intern(d.kernel_name);
      s.sgpr_count = d.sgpr_count;
      s.arch_vgpr_count = d.arch_vgpr_count;
      s.accum_vgpr_count = d.accum_vgpr_count;
      on_kernel_symbol(s);
    }
  });
}

void sync_api_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t* data,
                       void*) {
  c_boundary::guarded_call("rocprofiler v2 synchronous API callback", [&] {
    core_event e;
    switch (record.kind) {
      case ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API:
        e.what = event_class::runtime_api;
        break;
      case ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API:
        e.what = event_class::driver_api;
        break;
      default:
        e.what = event_class::marker;
        break;
    }
    const bool enter = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
    // ENTER keeps its time for EXIT (user_data lives from ENTER to EXIT of one call).
    if (enter) data->value = timestamp();
    e.begin_ns = data->value;
    e.end_ns = enter ? 0 : timestamp();
    e.operation = static_cast<uint32_t>(record.operation);
    e.correlation_id = record.correlation_id.internal;
    e.external_id = record.correlation_id.external.value;
    e.thread_id = record.thread_id;
    e.name = operation_name(e.what, e.operation);
    on_sync_event(e, enter);
  });
}

// Runs inside the core's initialisation (the only time contexts may be created).
int initialize_tool(rocprofiler_client_finalize_t, void*) {
  const core_table& c = core();
  port_state& s = state();
  if (c.rocprofiler_create_context(&s.tracing) != ROCPROFILER_STATUS_SUCCESS ||
      c.rocprofiler_create_context(&s.sync_api) != ROCPROFILER_STATUS_SUCCESS ||
      c.rocprofiler_create_context(&s.code_objects) != ROCPROFILER_STATUS_SUCCESS)
    return -1;
  // 256 KiB, delivered at 3/4: few hand-overs while a session runs; flush_data collects the
  // rest. LOSSLESS: a v2 buffer never loses records.
  if (c.rocprofiler_create_buffer(s.tracing, 256 * 1024, 192 * 1024,
                                  ROCPROFILER_BUFFER_POLICY_LOSSLESS, deliver, nullptr,
                                  &s.buffer) != ROCPROFILER_STATUS_SUCCESS)
    return -1;
  rocprofiler_callback_thread_t thread{};
  if (c.rocprofiler_create_callback_thread(&thread) == ROCPROFILER_STATUS_SUCCESS)
    c.rocprofiler_assign_callback_thread(s.buffer, thread);
  for (const traced_kind& k : k_traced)
    c.rocprofiler_configure_buffer_tracing_service(s.tracing, k.kind, nullptr, 0, s.buffer);
  for (rocprofiler_callback_tracing_kind_t kind : k_sync_kinds)
    c.rocprofiler_configure_callback_tracing_service(s.sync_api, kind, nullptr, 0,
                                                     sync_api_callback, nullptr);
  c.rocprofiler_configure_callback_tracing_service(s.code_objects,
                                                   ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                   nullptr, 0, code_object_callback, nullptr);
  c.rocprofiler_start_context(s.code_objects);
  configure_device_counting();
  s.configured.store(true);
  return 0;
}

void warn_once(const char* message) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) std::fprintf(stderr, "rocprofiler v2: %s\n", message);
}

}  // namespace

bool connect() {
  const core_table& c = core();
  if (!c.complete) {
    warn_once("the profiler core (librocprofiler-sdk) could not be found; nothing is traced");
    return false;
  }
  int initialized = 0;
  c.rocprofiler_is_initialized(&initialized);
  if (initialized == 0) c.rocprofiler_force_configure(&::rocprofiler_configure);
  if (!state().configured.load())
    warn_once(
        "the profiler core was initialised before librocprofiler64v2 was loaded: sessions "
        "record no trace (load the library with the program, not later)");
  return state().configured.load();
}

bool tracing_available() {
  return state().configured.load();
}

bool start_tracing() {
  return tracing_available() &&
         core().rocprofiler_start_context(state().tracing) == ROCPROFILER_STATUS_SUCCESS;
}

void stop_tracing() {
  if (tracing_available()) core().rocprofiler_stop_context(state().tracing);
}

bool start_sync_api() {
  return tracing_available() &&
         core().rocprofiler_start_context(state().sync_api) == ROCPROFILER_STATUS_SUCCESS;
}

void stop_sync_api() {
  if (tracing_available()) core().rocprofiler_stop_context(state().sync_api);
}

void flush() {
  if (tracing_available() && !t_delivering) core().rocprofiler_flush_buffer(state().buffer);
}

uint64_t timestamp() {
  rocprofiler_timestamp_t now = 0;
  if (core().rocprofiler_get_timestamp != nullptr) core().rocprofiler_get_timestamp(&now);
  return now;
}

std::vector<core_agent> agents() {
  std::vector<core_agent> out;
  if (core().rocprofiler_query_available_agents == nullptr) return out;
  core().rocprofiler_query_available_agents(
      ROCPROFILER_AGENT_INFO_VERSION_0,
      [](rocprofiler_agent_version_t, const void** list, size_t count, void* data) {
        auto& result = *static_cast<std::vector<core_agent>*>(data);
        for (size_t i = 0; i < count; ++i) {
          const auto* a = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
          core_agent agent;
          agent.id = a->id.handle;
          agent.gpu = a->type == ROCPROFILER_AGENT_TYPE_GPU;
          agent.name = intern(a->name != nullptr ? a->name : "");
          agent.wave_size = a->wave_front_size;
          result.push_back(agent);
        }
        return ROCPROFILER_STATUS_SUCCESS;
      },
      sizeof(rocprofiler_agent_v0_t), &out);
  return out;
}

const char* operation_name(event_class what, uint32_t operation) {
  const rocprofiler_buffer_tracing_kind_t kind = kind_of(what);
  if (kind == ROCPROFILER_BUFFER_TRACING_NONE) return nullptr;
  return kind_operation_name(kind, static_cast<int32_t>(operation));
}

bool operation_id(event_class what, const char* name, uint32_t* operation) {
  struct search {
    const char* name;
    uint32_t found;
    bool ok;
  } s{name, 0, false};
  const rocprofiler_buffer_tracing_kind_t kind = kind_of(what);
  if (kind == ROCPROFILER_BUFFER_TRACING_NONE || name == nullptr ||
      core().rocprofiler_iterate_buffer_tracing_kind_operations == nullptr)
    return false;
  core().rocprofiler_iterate_buffer_tracing_kind_operations(
      kind,
      [](rocprofiler_buffer_tracing_kind_t k, rocprofiler_tracing_operation_t op, void* data) {
        auto& q = *static_cast<search*>(data);
        const char* n = kind_operation_name(k, op);
        if (n != nullptr && std::strcmp(n, q.name) == 0) {
          q.found = static_cast<uint32_t>(op);
          q.ok = true;
          return 1;
        }
        return 0;
      },
      &s);
  if (s.ok) *operation = s.found;
  return s.ok;
}

}  // namespace rocprof::v2::core_port

// The tool entry point the core looks for (found in this library by its scan, or handed to
// rocprofiler_force_configure by connect()).
extern "C" ROCPROFILER_PUBLIC_API rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id) {
  return rocprof::c_boundary::guarded_or(
      __func__, static_cast<rocprofiler_tool_configure_result_t*>(nullptr), [&] {
        client_id->name = "rocprofiler-v2";
        static rocprofiler_tool_configure_result_t result{
            sizeof(rocprofiler_tool_configure_result_t), rocprof::v2::core_port::initialize_tool,
            nullptr, nullptr};
        return &result;
      });
}
