// Sample tool: external correlation id requests. Instead of pushing ids on each thread, the tool
// asks to be asked (rocprofiler_configure_external_correlation_id_request_service): for every
// kernel launch, memory copy and memset, on the launching thread, before the GPU work exists,
// the core calls request(); its answer comes back in correlation_id.external of that work's
// buffer records. The tool numbers its answers and checks at the end that each came back in the
// records of the work it was asked for (a graph launch's in each record of what it launched).
//
// Lines: "request kind=KERNEL_DISPATCH op=<launching call> cid=.. tid=.. ext=N"
//        "record kind=KERNEL_DISPATCH cid=.. ext=N"
// and at the end "summary requests=N records=M unseen=U unknown=K".
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "common/sample_output.hpp"

namespace {

rocprofiler_context_id_t g_context{};
rocprofiler_buffer_id_t g_buffer{};
std::atomic<uint64_t> g_next_id{1000};
std::mutex g_mutex;  // constant-initialised: safe before this library's constructors
// Built on first use, never destroyed (buffer threads print at exit). Not a namespace-scope
// object: with ROCPROFILER_LIBRARY_CTOR=1 the SDK initialises its tools from its own constructor,
// which runs before this library's (it depends on the SDK), so initialize() would use an object
// before its constructor ran (whether that constructor later empties it is up to the compiler).
std::map<uint64_t, uint64_t>& seen() {  // answered id -> records that carried it
  static auto* s = new std::map<uint64_t, uint64_t>{};
  return *s;
}
uint64_t g_records = 0;
uint64_t g_unknown = 0;  // records with an external id the tool never gave

std::string kind_name(rocprofiler_external_correlation_id_request_kind_t kind) {
  const char* name = nullptr;
  rocprofiler_query_external_correlation_id_request_kind_name(kind, &name, nullptr);
  return name != nullptr ? name : "?";
}

int request(rocprofiler_thread_id_t tid, rocprofiler_context_id_t,
            rocprofiler_external_correlation_id_request_kind_t kind,
            rocprofiler_tracing_operation_t operation, uint64_t internal_id,
            rocprofiler_user_data_t* external, void*) {
  external->value = g_next_id++;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    seen().emplace(external->value, 0);
  }
  sample::line("request")
      .add("kind", kind_name(kind))
      .add("op", operation)
      .add("cid", internal_id)
      .add("tid", tid)
      .add("ext", external->value)
      .print();
  return 0;  // answered
}

// The correlation ids of a kernel dispatch, memory copy or memory set record.
rocprofiler_async_correlation_id_t ids_of(const rocprofiler_record_header_t& header) {
  switch (header.kind) {
    case ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH:
      return static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(header.payload)
          ->correlation_id;
    case ROCPROFILER_BUFFER_TRACING_MEMORY_COPY:
      return static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(header.payload)
          ->correlation_id;
    case ROCPROFILER_BUFFER_TRACING_MEMORY_SET:
      return static_cast<const rocprofiler_buffer_tracing_memory_set_record_t*>(header.payload)
          ->correlation_id;
    default:
      return {};
  }
}

void on_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers, size_t count, void*, uint64_t) {
  for (size_t i = 0; i < count; ++i) {
    const rocprofiler_async_correlation_id_t ids = ids_of(*headers[i]);
    const char* kind = nullptr;
    rocprofiler_query_buffer_tracing_kind_name(
        static_cast<rocprofiler_buffer_tracing_kind_t>(headers[i]->kind), &kind, nullptr);
    const uint64_t ext = ids.external.value;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      ++g_records;
      auto found = seen().find(ext);
      if (found != seen().end())
        ++found->second;
      else
        ++g_unknown;
    }
    sample::line("record")
        .add("kind", kind != nullptr ? kind : "?")
        .add("cid", ids.internal)
        .add("ext", ext)
        .print();
  }
}

int initialize(rocprofiler_client_finalize_t, void*) {
  SAMPLE_CHECK(rocprofiler_create_context(&g_context));
  SAMPLE_CHECK(rocprofiler_create_buffer(g_context, 16 * 1024, 15 * 1024,
                                         ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_records, nullptr,
                                         &g_buffer));
  const rocprofiler_external_correlation_id_request_kind_t kinds[] = {
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,
      ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_SET};
  SAMPLE_CHECK(rocprofiler_configure_external_correlation_id_request_service(
      g_context, kinds, sizeof(kinds) / sizeof(kinds[0]), request, nullptr));
  for (auto kind : {ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                    ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, ROCPROFILER_BUFFER_TRACING_MEMORY_SET})
    SAMPLE_CHECK(
        rocprofiler_configure_buffer_tracing_service(g_context, kind, nullptr, 0, g_buffer));
  SAMPLE_CHECK(rocprofiler_start_context(g_context));
  return 0;
}

void finalize(void*) {
  rocprofiler_flush_buffer(g_buffer);
  std::lock_guard<std::mutex> lock(g_mutex);
  uint64_t unseen = 0;
  for (const auto& [id, records] : seen())
    unseen += records == 0 ? 1 : 0;
  sample::line("summary")
      .add("requests", seen().size())
      .add("records", g_records)
      .add("unseen", unseen)
      .add("unknown", g_unknown)
      .print();
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t, const char*,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "sample-external-correlation";
  static rocprofiler_tool_configure_result_t result{sizeof(rocprofiler_tool_configure_result_t),
                                                    &initialize, &finalize, nullptr};
  return &result;
}
