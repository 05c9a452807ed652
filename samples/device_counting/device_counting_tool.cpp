// Device counting sample: a tool that, at initialisation, builds an SQ_WAVES counter config
// for the first GPU agent, configures the device counting service of its context with a
// lossless buffer, and samples it every 50 ms from a detached thread (asynchronous samples into
// the buffer). The buffer callback prints each value; tool_fini flushes the buffer.
//
// Each sample's user_data is the CLOCK_MONOTONIC time of the sample call (ns), printed with
// the value, so a checker can line the values up with what the application did:
//   device_counting: SQ_WAVES <value> agent <handle> at <ns>
// Load it with LD_PRELOAD=libdevice_counting_tool.so ROCPROFILER_LIBRARY_CTOR=1 (initialise the
// tool while the core loads, before the application runs).
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

rocprofiler_context_id_t g_context{0};
rocprofiler_buffer_id_t g_buffer{0};
rocprofiler_agent_id_t g_gpu{0};
rocprofiler_counter_config_id_t g_config{0};
std::atomic<bool> g_stop{false};

bool ok(rocprofiler_status_t status, const char* what) {
  if (status == ROCPROFILER_STATUS_SUCCESS) return true;
  std::fprintf(stderr, "device_counting: %s failed: %s\n", what,
               rocprofiler_get_status_string(status));
  return false;
}

uint64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

void print_records(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
                   rocprofiler_record_header_t** headers, size_t count, void*, uint64_t drops) {
  for (size_t i = 0; i < count; ++i) {
    if (headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_COUNTERS ||
        headers[i]->kind != ROCPROFILER_COUNTER_RECORD_VALUE)
      continue;
    const auto* r = static_cast<const rocprofiler_counter_record_t*>(headers[i]->payload);
    rocprofiler_counter_id_t counter{0};
    rocprofiler_query_record_counter_id(r->id, &counter);
    rocprofiler_counter_info_v0_t info{};
    rocprofiler_query_counter_info(counter, ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
    std::printf("device_counting: %s %.17g agent %llu at %llu\n",
                info.name != nullptr ? info.name : "?", r->counter_value,
                static_cast<unsigned long long>(r->agent_id.handle),
                static_cast<unsigned long long>(r->user_data.value));
  }
  if (drops != 0)
    std::printf("device_counting: %llu records dropped\n", static_cast<unsigned long long>(drops));
  std::fflush(stdout);
}

rocprofiler_status_t first_gpu(rocprofiler_agent_version_t, const void** agents, size_t count,
                               void*) {
  for (size_t i = 0; i < count && g_gpu.handle == 0; ++i) {
    const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
    if (a->type == ROCPROFILER_AGENT_TYPE_GPU) g_gpu = a->id;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t collect_ids(rocprofiler_agent_id_t, rocprofiler_counter_id_t* ids,
                                 size_t count, void* user) {
  static_cast<std::vector<rocprofiler_counter_id_t>*>(user)->assign(ids, ids + count);
  return ROCPROFILER_STATUS_SUCCESS;
}

bool build_sq_waves_config() {
  std::vector<rocprofiler_counter_id_t> all;
  if (!ok(rocprofiler_iterate_agent_supported_counters(g_gpu, collect_ids, &all),
          "listing the GPU's counters"))
    return false;
  for (rocprofiler_counter_id_t id : all) {
    rocprofiler_counter_info_v0_t info{};
    if (rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info) !=
            ROCPROFILER_STATUS_SUCCESS ||
        info.name == nullptr || std::string(info.name) != "SQ_WAVES")
      continue;
    return ok(rocprofiler_create_counter_config(g_gpu, &id, 1, &g_config),
              "creating the SQ_WAVES config");
  }
  std::fprintf(stderr, "device_counting: the GPU has no SQ_WAVES counter\n");
  return false;
}

// Called when the context starts: the config for this agent.
void choose_config(rocprofiler_context_id_t context, rocprofiler_agent_id_t agent,
                   rocprofiler_device_counting_agent_cb_t set_config, void*) {
  if (agent.handle == g_gpu.handle) ok(set_config(context, g_config), "setting the config");
}

void sample_every_50ms() {
  while (!g_stop.load()) {
    rocprofiler_user_data_t when{};
    when.value = monotonic_ns();
    rocprofiler_sample_device_counting_service(g_context, when, ROCPROFILER_COUNTER_FLAG_ASYNC,
                                               nullptr, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  if (!ok(rocprofiler_create_context(&g_context), "creating the context")) return -1;
  if (!ok(rocprofiler_create_buffer(g_context, 4096, 2048, ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                    print_records, nullptr, &g_buffer),
          "creating the buffer"))
    return -1;
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, first_gpu,
                                     sizeof(rocprofiler_agent_v0_t), nullptr);
  if (g_gpu.handle == 0) {
    std::fprintf(stderr, "device_counting: no GPU agent\n");
    return -1;
  }
  if (!build_sq_waves_config()) return -1;
  rocprofiler_callback_thread_t thread{};
  if (ok(rocprofiler_create_callback_thread(&thread), "creating a callback thread"))
    rocprofiler_assign_callback_thread(g_buffer, thread);
  if (!ok(rocprofiler_configure_device_counting_service(g_context, g_buffer, g_gpu, choose_config,
                                                        nullptr),
          "configuring device counting"))
    return -1;
  if (!ok(rocprofiler_start_context(g_context), "starting the context")) return -1;
  std::thread(sample_every_50ms).detach();
  return 0;
}

void tool_fini(void*) {
  g_stop.store(true);
  rocprofiler_flush_buffer(g_buffer);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "device_counting_sample";
  static rocprofiler_tool_configure_result_t result{sizeof(result), tool_init, tool_fini, nullptr};
  return &result;
}
