#include "code_objects.hpp"

#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "context.hpp"
#include "registration.hpp"
#include "thread_state.hpp"

namespace rocprof::core {
namespace {

// One reported event, deep-copied: the payload struct plus the strings it points to.
struct stored_event {
  rocprofiler_code_object_operation_t operation{};
  rocprofiler_callback_phase_t phase{};
  rocprofiler_callback_tracing_code_object_load_data_t load{};
  rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t symbol{};
  rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t host{};
  std::string text;  // uri / kernel_name / device_function
  void* payload() {
    switch (operation) {
      case ROCPROFILER_CODE_OBJECT_LOAD:
        return &load;
      case ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER:
        return &symbol;
      default:
        return &host;
    }
  }
};

std::deque<stored_event>& events() {
  static auto* e = new std::deque<stored_event>();  // deque: elements never move
  return *e;
}
// Per context: how many events it has received.
size_t g_cursor[max_contexts] = {};

void deliver(uint32_t ctx_index, stored_event& ev) {
  context* ctx = g_contexts[ctx_index];
  const callback_service& svc = ctx->callbacks[ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT];
  if (svc.callback == nullptr || !svc.ops.test(ev.operation)) return;
  thread_state* st = current_thread();
  rocprofiler_user_data_t user_data{0};
  rocprofiler_callback_tracing_record_t rec{rocprofiler_context_id_t{context_handle(ctx_index)},
                                            st != nullptr ? st->tid : 0,
                                            rocprofiler_correlation_id_t{},
                                            ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                            ev.operation,
                                            ev.phase,
                                            ev.payload()};
  svc.callback(rec, &user_data, svc.data);
}

}  // namespace

void report_code_object(rocprofiler_code_object_operation_t operation,
                        rocprofiler_callback_phase_t phase, const void* data) {
  if (data == nullptr) return;
  std::lock_guard<std::recursive_mutex> lock(config_mutex());
  stored_event& ev = events().emplace_back();
  ev.operation = operation;
  ev.phase = phase;
  switch (operation) {
    case ROCPROFILER_CODE_OBJECT_LOAD:
      ev.load = *static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(data);
      ev.text = ev.load.uri != nullptr ? ev.load.uri : "";
      ev.load.uri = ev.text.c_str();
      break;
    case ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER:
      ev.symbol = *static_cast<
          const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(data);
      ev.text = ev.symbol.kernel_name != nullptr ? ev.symbol.kernel_name : "";
      ev.symbol.kernel_name = ev.text.c_str();
      break;
    case ROCPROFILER_CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER:
      ev.host = *static_cast<
          const rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t*>(data);
      ev.text = ev.host.device_function != nullptr ? ev.host.device_function : "";
      ev.host.device_function = ev.text.c_str();
      break;
    default:
      events().pop_back();
      return;
  }
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i) {
    if (!g_contexts[i]->active.load()) continue;
    for (; g_cursor[i] < events().size(); ++g_cursor[i])
      deliver(i, events()[g_cursor[i]]);
  }
}

void replay_code_objects(context* ctx) {
  std::lock_guard<std::recursive_mutex> lock(config_mutex());
  size_t& cursor = g_cursor[ctx->index];
  for (; cursor < events().size(); ++cursor)
    deliver(ctx->index, events()[cursor]);
}

}  // namespace rocprof::core
