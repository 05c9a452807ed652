// rocprofiler_iterate_callback_tracing_kind_operation_args and
// rocprofiler_iterate_buffer_tracing_record_args: the arguments of a traced call, one callback
// per argument. The marker kinds' arguments are the core's own (their args union); the kinds a
// backend owns (the CUDA API kinds) are decoded by that backend, which knows their layouts.
// Not on the hot path: tools call these from their own callbacks.
#include <cinttypes>
#include <cstdio>

#include "backend_loader.hpp"
#include "guarded.hpp"
#include "rocprofiler-sdk/buffer_tracing.h"
#include "rocprofiler-sdk/callback_tracing.h"
#include "rocprofiler-sdk/marker_api.h"

namespace rocprof::core {
namespace {

// text: const char*; u64 / i32: a number; u64_pointer: a pointer to a uint64_t; address: any
// other pointer.
enum class arg_form : uint8_t { text, u64, i32, u64_pointer, address };

// One marker argument: where its value is and how it reads.
struct marker_arg {
  const char* name;
  const char* type;
  const void* address;
  arg_form form;
};

// The arguments of marker operation `op` of `kind`, from its args union; count 0 for none.
size_t marker_args(rocprofiler_callback_tracing_kind_t kind, int32_t op,
                   const rocprofiler_marker_api_args_t& a, marker_arg (&out)[2]) {
  const auto message = [&out](const char* const& text) {
    out[0] = marker_arg{"message", "const char*", &text, arg_form::text};
    return size_t{1};
  };
  switch (kind) {
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API:
      switch (op) {
        case ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA:
          return message(a.roctxMarkA.message);
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA:
          return message(a.roctxRangePushA.message);
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA:
          return message(a.roctxRangeStartA.message);
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop:
          out[0] = marker_arg{"id", "roctx_range_id_t", &a.roctxRangeStop.id, arg_form::u64};
          return 1;
        case ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId:
          out[0] = marker_arg{"tid", "roctx_thread_id_t*", &a.roctxGetThreadId.tid,
                              arg_form::u64_pointer};
          return 1;
        default:
          return 0;  // roctxRangePop has none
      }
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API:
      out[0] = marker_arg{"tid", "roctx_thread_id_t", &a.roctxProfilerPause.tid, arg_form::u64};
      return op == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause ||
                     op == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume
                 ? 1
                 : 0;
    case ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API:
      out[0] = marker_arg{"name", "const char*", &a.roctxNameOsThread.name, arg_form::text};
      switch (op) {
        case ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread:
          return 1;
        case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent:
          out[1] = marker_arg{"agent", "const struct hsa_agent_s*", &a.roctxNameHsaAgent.agent,
                              arg_form::address};
          return 2;
        case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice:
          out[1] = marker_arg{"device_id", "int", &a.roctxNameHipDevice.device_id, arg_form::i32};
          return 2;
        case ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream:
          out[1] = marker_arg{"stream", "const struct ihipStream_t*", &a.roctxNameHipStream.stream,
                              arg_form::address};
          return 2;
        default:
          return 0;
      }
    case ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API:
      switch (op) {
        case ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA:
          return message(a.roctxMarkA.message);
        case ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA:
          return message(a.roctxThreadRangeA.message);
        case ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA:
          message(a.roctxProcessRangeA.message);
          out[1] = marker_arg{"id", "roctx_range_id_t", &a.roctxProcessRangeA.id, arg_form::u64};
          return 2;
        case ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId:
          out[0] = marker_arg{"tid", "roctx_thread_id_t*", &a.roctxGetThreadId.tid,
                              arg_form::u64_pointer};
          return 1;
        default:
          return 0;
      }
    default:
      return 0;
  }
}

// The value as text, following a pointer when max_deref allows; returns how often it did.
int32_t format_marker_arg(const marker_arg& arg, int32_t max_deref, char (&text)[64],
                          const char** shown) {
  *shown = text;
  switch (arg.form) {
    case arg_form::text: {
      const char* s = *static_cast<const char* const*>(arg.address);
      if (s != nullptr && max_deref > 0) {
        *shown = s;  // interned by the core: valid until exit
        return 1;
      }
      std::snprintf(text, sizeof(text), "%p", static_cast<const void*>(s));
      return 0;
    }
    case arg_form::u64:
      std::snprintf(text, sizeof(text), "%" PRIu64, *static_cast<const uint64_t*>(arg.address));
      return 0;
    case arg_form::i32:
      std::snprintf(text, sizeof(text), "%d", *static_cast<const int*>(arg.address));
      return 0;
    case arg_form::u64_pointer: {
      const uint64_t* p = *static_cast<const uint64_t* const*>(arg.address);
      if (p != nullptr && max_deref > 0) {
        std::snprintf(text, sizeof(text), "%" PRIu64, *p);
        return 1;
      }
      std::snprintf(text, sizeof(text), "%p", static_cast<const void*>(p));
      return 0;
    }
    case arg_form::address:
    default:
      std::snprintf(text, sizeof(text), "%p", *static_cast<const void* const*>(arg.address));
      return 0;
  }
}

rocprofiler_status_t iterate_marker_args(const rocprofiler_callback_tracing_record_t& record,
                                         rocprofiler_callback_tracing_operation_args_cb_t callback,
                                         int32_t max_deref, void* data) {
  if (record.payload == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  const auto& payload =
      *static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
  marker_arg args[2] = {};
  const size_t count = marker_args(record.kind, record.operation, payload.args, args);
  for (size_t i = 0; i < count; ++i) {
    char text[64];
    const char* shown = nullptr;
    const int32_t derefs = format_marker_arg(args[i], max_deref, text, &shown);
    const int32_t indirection =
        args[i].form == arg_form::u64 || args[i].form == arg_form::i32 ? 0 : 1;
    if (callback(record.kind, record.operation, static_cast<uint32_t>(i), args[i].address,
                 indirection, args[i].type, args[i].name, shown, derefs, data) != 0)
      break;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

bool is_marker_kind(rocprofiler_callback_tracing_kind_t kind) {
  return kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API ||
         kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API ||
         kind == ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API ||
         kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API;
}

// Carries the tool's callback through the backend's argument callback, which knows neither
// kind nor operation nor which of the two public callback types the tool gave.
struct forward_args {
  bool buffer = false;
  uint32_t kind = 0;
  rocprofiler_tracing_operation_t operation = 0;
  rocprofiler_callback_tracing_operation_args_cb_t callback_cb = nullptr;
  rocprofiler_buffer_tracing_operation_args_cb_t buffer_cb = nullptr;
  void* data = nullptr;
};

int forward_arg(uint32_t arg_number, const void* address, int32_t indirection, const char* type,
                const char* name, const char* value, int32_t derefs, void* user) {
  const auto& f = *static_cast<const forward_args*>(user);
  if (f.buffer)
    return f.buffer_cb(static_cast<rocprofiler_buffer_tracing_kind_t>(f.kind), f.operation,
                       arg_number, address, indirection, type, name, value, f.data);
  return f.callback_cb(static_cast<rocprofiler_callback_tracing_kind_t>(f.kind), f.operation,
                       arg_number, address, indirection, type, name, value, derefs, f.data);
}

}  // namespace
}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operation_args(
    rocprofiler_callback_tracing_record_t record,
    rocprofiler_callback_tracing_operation_args_cb_t callback, int32_t max_dereference_count,
    void* user_data) {
  return guarded(__func__, [&] {
    if (is_marker_kind(record.kind))
      return iterate_marker_args(record, callback, max_dereference_count, user_data);
    if (record.kind != ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API &&
        record.kind != ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API)
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_cuda_api_data_t*>(record.payload);
    if (payload == nullptr || payload->args == nullptr) return ROCPROFILER_STATUS_SUCCESS;
    forward_args f;
    f.kind = static_cast<uint32_t>(record.kind);
    f.operation = record.operation;
    f.callback_cb = callback;
    f.data = user_data;
    return backend_iterate_args(false, f.kind, record.operation, payload->args, 0,
                                max_dereference_count, &forward_arg, &f);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_iterate_buffer_tracing_record_args(
    rocprofiler_record_header_t record, rocprofiler_buffer_tracing_operation_args_cb_t callback,
    void* user_data) {
  return guarded(__func__, [&] {
    if (record.category != ROCPROFILER_BUFFER_CATEGORY_TRACING || record.payload == nullptr ||
        (record.kind != ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API &&
         record.kind != ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API))
      return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
    const auto& r =
        *static_cast<const rocprofiler_buffer_tracing_cuda_api_record_t*>(record.payload);
    if (r.args_size == 0) return ROCPROFILER_STATUS_SUCCESS;  // a call without arguments
    forward_args f;
    f.buffer = true;
    f.kind = record.kind;
    f.operation = r.operation;
    f.buffer_cb = callback;
    f.data = user_data;
    return backend_iterate_args(true, f.kind, r.operation, r.args, r.args_size, 0, &forward_arg,
                                &f);
  });
}

}  // extern "C"
