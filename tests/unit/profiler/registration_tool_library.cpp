// A tool in a shared library, found by the core through ROCP_TOOL_LIBRARIES, the library
// constructor path, or the link-map scan (registration_test.cpp).
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

int g_configure_calls = 0;
int g_initialize_calls = 0;
int g_finalize_calls = 0;
rocprofiler_context_id_t g_context{};
rocprofiler_client_finalize_t g_fini = nullptr;
rocprofiler_client_id_t* g_client = nullptr;

std::atomic<uint64_t> g_marker_records{0};

void count_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**,
                   size_t n, void*, uint64_t) {
  g_marker_records.fetch_add(n);
}

int initialize(rocprofiler_client_finalize_t fini, void*) {
  ++g_initialize_calls;
  g_fini = fini;
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) return 1;
  rocprofiler_buffer_id_t buffer{};
  if (rocprofiler_create_buffer(g_context, 4096, 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                count_records, nullptr, &buffer) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_configure_buffer_tracing_service(
          g_context, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, nullptr, 0, buffer) !=
          ROCPROFILER_STATUS_SUCCESS)
    return 1;
  const char* fail = std::getenv("ROCPROF_TEST_TOOL_FAIL");
  if (fail != nullptr && std::strcmp(fail, "1") == 0) return 1;
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

// At exit the core has flushed every buffer and stopped this tool's context before calling
// this: what the process recorded has arrived. (CTest matches this line.)
void finalize(void*) {
  ++g_finalize_calls;
  int active = -1;
  rocprofiler_context_is_active(g_context, &active);
  std::printf("test-tool finalized after %llu marker records, context active %d\n",
              static_cast<unsigned long long>(g_marker_records.load()), active);
  std::fflush(stdout);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) rocprofiler_tool_configure_result_t* rocprofiler_configure(
    uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client) {
  ++g_configure_calls;
  client->name = "test-tool-library";
  g_client = client;
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, finalize, nullptr};
  return &result;
}

__attribute__((visibility("default"))) int test_tool_configure_calls() {
  return g_configure_calls;
}
__attribute__((visibility("default"))) int test_tool_initialize_calls() {
  return g_initialize_calls;
}
__attribute__((visibility("default"))) int test_tool_finalize_calls() {
  return g_finalize_calls;
}
__attribute__((visibility("default"))) uint64_t test_tool_context() {
  return g_context.handle;
}
__attribute__((visibility("default"))) void test_tool_finalize_now() {
  if (g_fini != nullptr && g_client != nullptr) g_fini(*g_client);
}

}  // extern "C"
