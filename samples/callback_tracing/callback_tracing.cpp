// Sample tool: callback tracing. The calls of ROCTx (MARKER_CORE_API, MARKER_NAME_API) and of
// the CUDA runtime API reach the tool synchronously, on the calling thread, at ENTER and EXIT;
// each is printed with its arguments (rocprofiler_iterate_callback_tracing_kind_operation_args,
// which follows output pointers at EXIT). roctxProfilerPause / Resume stop and start the
// tracing context from a second, always-on context. At configuration the tool checks the
// version it was handed against rocprofiler_get_version_triplet (cxx/version.hpp and
// cxx/operators.hpp).
//
// Lines: "version runtime=1.0.0 matches=1", "names callback_kinds=N", then per call and phase
//   "callback kind=MARKER_CORE_API op=roctxRangePushA phase=enter cid=.. tid=.. args=(message=..)"
// and at the end "summary callbacks=N".
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>
#include <rocprofiler-sdk/cxx/version.hpp>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/sample_output.hpp"

namespace {

rocprofiler_context_id_t g_context{};
rocprofiler_context_id_t g_control{};
// Built on first use, never destroyed (buffer threads print at exit). Not a namespace-scope
// object: with ROCPROFILER_LIBRARY_CTOR=1 the SDK initialises its tools from its own constructor,
// which runs before this library's (it depends on the SDK), so initialize() would use an object
// before its constructor ran (whether that constructor later empties it is up to the compiler).
rocprofiler::sdk::callback_name_info& names() {
  static auto* n = new rocprofiler::sdk::callback_name_info{};
  return *n;
}
std::atomic<uint64_t> g_callbacks{0};

std::string_view name_of(rocprofiler_callback_tracing_kind_t kind, int32_t op = -1) {
  try {
    return op < 0 ? names().at(kind) : names().at(kind, op);
  } catch (const std::out_of_range&) {
    return "?";
  }
}

void on_call(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t* user_data,
             void*) {
  // The user data lives from ENTER to EXIT of one call: here, the ENTER time.
  rocprofiler_timestamp_t now = 0;
  rocprofiler_get_timestamp(&now);
  const bool enter = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
  if (enter) user_data->value = now;
  std::string args;
  // At ENTER an output argument may not be set yet: follow pointers once only.
  rocprofiler_iterate_callback_tracing_kind_operation_args(
      record,
      [](rocprofiler_callback_tracing_kind_t, rocprofiler_tracing_operation_t, uint32_t number,
         const void* const, int32_t, const char*, const char* name, const char* value, int32_t,
         void* data) {
        auto& out = *static_cast<std::string*>(data);
        out += number == 0 ? "(" : ", ";
        out += std::string(name) + "=" + value;
        return 0;
      },
      enter ? 1 : 2, &args);
  sample::line l{"callback"};
  l.add("kind", name_of(record.kind)).add("op", name_of(record.kind, record.operation));
  l.add("phase", enter ? "enter" : "exit").add("cid", record.correlation_id.internal);
  l.add("tid", record.thread_id).add("args", args.empty() ? "()" : args + ")");
  if (!enter) l.add("duration_ns", now - user_data->value);
  l.print();
  ++g_callbacks;
}

// roctxProfilerPause at ENTER stops the traced context, roctxProfilerResume at EXIT starts it.
// A separate context: a stopped context would not see the resume.
void on_control(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*) {
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER &&
      record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause)
    rocprofiler_stop_context(g_context);
  if (record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT &&
      record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume)
    rocprofiler_start_context(g_context);
}

int initialize(rocprofiler_client_finalize_t, void*) {
  SAMPLE_CHECK(rocprofiler_create_context(&g_control));
  SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
      g_control, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API, nullptr, 0, on_control, nullptr));
  SAMPLE_CHECK(rocprofiler_start_context(g_control));

  SAMPLE_CHECK(rocprofiler_create_context(&g_context));
  for (auto kind :
       {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API,
        ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API})
    SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(g_context, kind, nullptr, 0,
                                                                on_call, nullptr));
  names() = rocprofiler::sdk::get_callback_tracing_names();
  sample::line("names").add("callback_kinds", names().size()).print();
  int valid = 0;
  SAMPLE_CHECK(rocprofiler_context_is_valid(g_context, &valid));
  if (valid == 0) return -1;
  SAMPLE_CHECK(rocprofiler_start_context(g_context));
  return 0;
}

void finalize(void*) {
  sample::line("summary").add("callbacks", g_callbacks.load()).print();
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t version,
                                                                      const char* runtime_version,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "sample-callback-tracing";
  // The version handed here, unpacked, is the library's.
  rocprofiler_version_triplet_t library{};
  if (!sample::check(rocprofiler_get_version_triplet(&library), "rocprofiler_get_version_triplet"))
    return nullptr;
  const rocprofiler_version_triplet_t handed =
      rocprofiler::sdk::version::compute_version_triplet(version);
  sample::line("version").add("runtime", runtime_version).add("matches", handed == library).print();
  static rocprofiler_tool_configure_result_t result{sizeof(rocprofiler_tool_configure_result_t),
                                                    &initialize, &finalize, nullptr};
  return &result;
}
