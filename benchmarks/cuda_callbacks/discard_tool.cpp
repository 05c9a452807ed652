// A preloaded rocprofiler-sdk tool that asks for what `rocprofv3 --sys-trace` asks of the CUDA
// backend (runtime and driver API, kernels, copies, sets, allocations as buffer records) and
// drops every record it is handed: the plugin + core cost without the tool's journal.
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdio>
#include <initializer_list>

namespace {

rocprofiler_context_id_t g_context{};
rocprofiler_buffer_id_t g_buffer{};
std::atomic<uint64_t> g_records{0};

void drop_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                  rocprofiler_record_header_t** headers, size_t count, void*, uint64_t) {
  (void)headers;
  g_records.fetch_add(count, std::memory_order_relaxed);
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) return -1;
  if (rocprofiler_create_buffer(g_context, size_t{4} << 20, size_t{3} << 20,
                                ROCPROFILER_BUFFER_POLICY_LOSSLESS, &drop_records, nullptr,
                                &g_buffer) != ROCPROFILER_STATUS_SUCCESS)
    return -1;
  for (rocprofiler_buffer_tracing_kind_t kind :
       {ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API,
        ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
        ROCPROFILER_BUFFER_TRACING_MEMORY_SET, ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION}) {
    if (rocprofiler_configure_buffer_tracing_service(g_context, kind, nullptr, 0, g_buffer) !=
        ROCPROFILER_STATUS_SUCCESS)
      return -1;
  }
  return rocprofiler_start_context(g_context) == ROCPROFILER_STATUS_SUCCESS ? 0 : -1;
}

void tool_fini(void*) {
  rocprofiler_flush_buffer(g_buffer);
  std::printf("DISCARD_TOOL records=%llu\n", static_cast<unsigned long long>(g_records.load()));
  std::fflush(stdout);
}

}  // namespace

extern "C" rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t, const char*,
                                                                      uint32_t,
                                                                      rocprofiler_client_id_t* id) {
  id->name = "discard_tool";
  static rocprofiler_tool_configure_result_t result{sizeof(result), &tool_init, &tool_fini,
                                                    nullptr};
  return &result;
}
