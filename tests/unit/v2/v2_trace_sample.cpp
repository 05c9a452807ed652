// A v2 program in the style of the rocprofiler v2 API pages: one session with an API-trace
// filter (runtime API, async operations, markers) and a kernel-timestamps filter into one
// buffer with a flush interval, started around the work, terminated, flushed, destroyed.
// The work comes from the stand-in backend (no GPU) and ROCTx. Each record is printed; the
// last line sums them up ("records: api=N ops=N markers=N kernels=N").
#include <dlfcn.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler/v2/rocprofiler.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_ROCPROFILER(call)                                                       \
  do {                                                                                \
    rocprofiler_status_t status_ = (call);                                            \
    if (status_ != ROCPROFILER_STATUS_SUCCESS) {                                      \
      std::fprintf(stderr, "%s failed: %s\n", #call, rocprofiler_error_str(status_)); \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace {

std::atomic<int> g_api{0}, g_ops{0}, g_markers{0}, g_kernels{0};

void write_records(const rocprofiler_record_header_t* record,
                   const rocprofiler_record_header_t* end_record,
                   rocprofiler_session_id_t session_id, rocprofiler_buffer_id_t buffer_id) {
  while (record < end_record) {
    if (record->kind == ROCPROFILER_PROFILER_RECORD) {
      const auto* p = reinterpret_cast<const rocprofiler_record_profiler_t*>(record);
      const char* kernel = "?";
      rocprofiler_query_kernel_info(ROCPROFILER_KERNEL_NAME, p->kernel_id, &kernel);
      const char* gpu = "?";
      rocprofiler_query_agent_info(ROCPROFILER_AGENT_NAME, p->gpu_id, &gpu);
      std::printf("kernel %s on %s grid=%lu ns=%lu\n", kernel, gpu,
                  static_cast<unsigned long>(p->kernel_properties.grid_size),
                  static_cast<unsigned long>(p->timestamps.end.value - p->timestamps.begin.value));
      ++g_kernels;
    } else if (record->kind == ROCPROFILER_TRACER_RECORD) {
      const auto* t = reinterpret_cast<const rocprofiler_record_tracer_t*>(record);
      const char* op = "?";
      rocprofiler_query_tracer_operation_name(t->domain, t->operation_id, &op);
      std::printf("tracer domain=%d op=%s name=%s correlation=%lu\n", t->domain, op,
                  t->name != nullptr ? t->name : "",
                  static_cast<unsigned long>(t->correlation_id.value));
      if (t->domain == ACTIVITY_DOMAIN_HIP_API) ++g_api;
      if (t->domain == ACTIVITY_DOMAIN_HIP_OPS) ++g_ops;
      if (t->domain == ACTIVITY_DOMAIN_ROCTX) ++g_markers;
    }
    CHECK_ROCPROFILER(rocprofiler_next_record(record, &record, session_id, buffer_id));
  }
}

}  // namespace

int main() {
  CHECK_ROCPROFILER(rocprofiler_initialize());
  rocprofiler_session_id_t session_id;
  CHECK_ROCPROFILER(rocprofiler_create_session(ROCPROFILER_NONE_REPLAY_MODE, &session_id));
  rocprofiler_buffer_id_t buffer_id;
  CHECK_ROCPROFILER(rocprofiler_create_buffer(session_id, write_records, 0x9999, &buffer_id));
  rocprofiler_buffer_property_t flush_every_50ms{ROCPROFILER_BUFFER_PROPERTY_KIND_INTERVAL_FLUSH,
                                                 50};
  CHECK_ROCPROFILER(rocprofiler_set_buffer_properties(session_id, buffer_id, &flush_every_50ms, 1));

  std::vector<rocprofiler_tracer_activity_domain_t> apis{
      ACTIVITY_DOMAIN_HIP_API, ACTIVITY_DOMAIN_HIP_OPS, ACTIVITY_DOMAIN_ROCTX};
  rocprofiler_filter_data_t apis_data{};
  apis_data.trace_apis = apis.data();
  rocprofiler_filter_id_t api_filter;
  CHECK_ROCPROFILER(rocprofiler_create_filter(session_id, ROCPROFILER_API_TRACE, apis_data,
                                              apis.size(), &api_filter,
                                              rocprofiler_filter_property_t{}));
  CHECK_ROCPROFILER(rocprofiler_set_filter_buffer(session_id, api_filter, buffer_id));
  rocprofiler_filter_id_t kernel_filter;
  CHECK_ROCPROFILER(rocprofiler_create_filter(
      session_id, ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION, rocprofiler_filter_data_t{}, 0,
      &kernel_filter, rocprofiler_filter_property_t{}));
  CHECK_ROCPROFILER(rocprofiler_set_filter_buffer(session_id, kernel_filter, buffer_id));

  // The stand-in backend the core loaded plays the GPU program.
  const std::string plugin =
      std::string(ROCPROF_TEST_V2_BACKEND_DIR) + "/librocprofiler-sdk-v2standin.so";
  void* backend = dlopen(plugin.c_str(), RTLD_NOLOAD | RTLD_NOW);
  if (backend == nullptr) {
    std::fprintf(stderr, "the stand-in backend is not loaded (ROCPROF_BACKEND_DIR?)\n");
    return 1;
  }
  auto load = reinterpret_cast<void (*)(uint64_t, uint64_t, const char*, const void*, uint64_t)>(
      dlsym(backend, "v2_standin_load_module"));
  auto launch = reinterpret_cast<uint64_t (*)(uint64_t)>(dlsym(backend, "v2_standin_launch"));
  auto copy = reinterpret_cast<uint64_t (*)(uint64_t)>(dlsym(backend, "v2_standin_copy"));
  static const char cubin[8] = {0x7f, 'E', 'L', 'F'};
  load(1, 7, "_Z11vector_addPfS_S_i", cubin, sizeof(cubin));

  launch(7);  // before the session: not traced
  CHECK_ROCPROFILER(rocprofiler_start_session(session_id));
  roctxRangePushA("iteration");
  copy(1 << 20);
  launch(7);
  launch(7);
  roctxRangePop();
  CHECK_ROCPROFILER(rocprofiler_terminate_session(session_id));
  CHECK_ROCPROFILER(rocprofiler_flush_data(session_id, buffer_id));
  CHECK_ROCPROFILER(rocprofiler_destroy_session(session_id));
  CHECK_ROCPROFILER(rocprofiler_finalize());
  std::printf("records: api=%d ops=%d markers=%d kernels=%d\n", g_api.load(), g_ops.load(),
              g_markers.load(), g_kernels.load());
  return 0;
}
