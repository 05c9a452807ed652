// Cost of a roctxRangePushA + roctxRangePop pair with a minimal tool configured in-process
// (marker buffer tracing on, LOSSLESS buffer, records counted on the core's callback thread),
// on 1 and 8 threads, printed as a ratio to two clock_gettime(CLOCK_BOOTTIME) calls measured in
// the same run. roctx_pair_app measures the same pair with the real tool library loaded.
//
// Exits non-zero only if records were lost (the ratio is reported, not enforced: shared
// machines are noisy).
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdio>

#include "pair_timing.hpp"

namespace {

std::atomic<uint64_t> g_records{0};
std::atomic<uint64_t> g_drops{0};
rocprofiler_context_id_t g_ctx{};
rocprofiler_buffer_id_t g_buf{};

void on_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t**,
                size_t n, void*, uint64_t drops) {
  g_records.fetch_add(n, std::memory_order_relaxed);
  g_drops.fetch_add(drops, std::memory_order_relaxed);
}

int initialize(rocprofiler_client_finalize_t, void*) {
  if (rocprofiler_create_context(&g_ctx) != ROCPROFILER_STATUS_SUCCESS) return 1;
  // rocprofv3's buffer parameters: 16 pages, watermark 15 pages, LOSSLESS.
  if (rocprofiler_create_buffer(g_ctx, 16 * 4096, 15 * 4096, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                on_records, nullptr, &g_buf) != ROCPROFILER_STATUS_SUCCESS)
    return 1;
  if (rocprofiler_configure_buffer_tracing_service(g_ctx,
                                                   ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
                                                   nullptr, 0, g_buf) != ROCPROFILER_STATUS_SUCCESS)
    return 1;
  return rocprofiler_start_context(g_ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "roctx-bench";
  static rocprofiler_tool_configure_result_t result{sizeof(result), initialize, nullptr, nullptr};
  return &result;
}

}  // namespace

int main(int argc, char** argv) {
  const roctx_bench::options options = roctx_bench::options_from(argc, argv);
  if (rocprofiler_force_configure(configure) != ROCPROFILER_STATUS_SUCCESS) {
    std::fprintf(stderr, "cannot configure the benchmark tool\n");
    return 2;
  }
  const uint64_t expected = roctx_bench::measure_and_print("minimal tool", options);
  rocprofiler_flush_buffer(g_buf);
  const uint64_t got = g_records.load();
  std::printf("records delivered: %llu of %llu, dropped: %llu\n",
              static_cast<unsigned long long>(got), static_cast<unsigned long long>(expected),
              static_cast<unsigned long long>(g_drops.load()));
  return got == expected && g_drops.load() == 0 ? 0 : 1;
}
