// What one synchronous rocprofiler_sample_device_counting_service call costs (issue 11, item 5).
// A tool, loaded with LD_PRELOAD=libsync_sample_cost.so ROCPROFILER_LIBRARY_CTOR=1 into a GPU
// program (samples/device_counting/busy_idle): it configures device counting of SQ_WAVES (or
// SYNC_SAMPLE_COUNTER) on the first GPU with no buffer, and once the context runs, a thread
// makes SYNC_SAMPLE_CALLS (default 2000) synchronous calls with an output array, every
// SYNC_SAMPLE_GAP_US (default 500) µs, timing each call. At the end it prints
//   SYNC_SAMPLE_COST calls <n> ok <n> median_us <x> p90_us <x> max_us <x> nonzero <n>
// (nonzero: calls whose value was above zero, i.e. taken while kernels ran).
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

rocprofiler_context_id_t g_context{0};
rocprofiler_agent_id_t g_gpu{0};
rocprofiler_counter_config_id_t g_config{0};
std::atomic<bool> g_stop{false};
std::thread g_thread;

size_t env_number(const char* name, size_t fallback) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
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

bool build_config(const std::string& wanted) {
  std::vector<rocprofiler_counter_id_t> all;
  rocprofiler_iterate_agent_supported_counters(g_gpu, collect_ids, &all);
  for (rocprofiler_counter_id_t id : all) {
    rocprofiler_counter_info_v0_t info{};
    if (rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info) ==
            ROCPROFILER_STATUS_SUCCESS &&
        info.name != nullptr && wanted == info.name)
      return rocprofiler_create_counter_config(g_gpu, &id, 1, &g_config) ==
             ROCPROFILER_STATUS_SUCCESS;
  }
  std::fprintf(stderr, "sync_sample_cost: the GPU has no counter %s\n", wanted.c_str());
  return false;
}

void choose_config(rocprofiler_context_id_t context, rocprofiler_agent_id_t agent,
                   rocprofiler_device_counting_agent_cb_t set_config, void*) {
  if (agent.handle == g_gpu.handle) set_config(context, g_config);
}

void measure() {
  const size_t calls = env_number("SYNC_SAMPLE_CALLS", 2000);
  const auto gap = std::chrono::microseconds(env_number("SYNC_SAMPLE_GAP_US", 500));
  std::vector<double> us;
  us.reserve(calls);
  size_t nonzero = 0;
  rocprofiler_counter_record_t records[64];
  for (size_t i = 0; i < calls && !g_stop.load(); ++i) {
    size_t count = sizeof(records) / sizeof(records[0]);
    const auto start = std::chrono::steady_clock::now();
    const rocprofiler_status_t status = rocprofiler_sample_device_counting_service(
        g_context, rocprofiler_user_data_t{}, ROCPROFILER_COUNTER_FLAG_NONE, records, &count);
    const auto end = std::chrono::steady_clock::now();
    if (status == ROCPROFILER_STATUS_SUCCESS) {
      us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
      if (count > 0 && records[0].counter_value > 0) ++nonzero;
    }
    std::this_thread::sleep_for(gap);
  }
  std::sort(us.begin(), us.end());
  const auto at = [&us](double q) {
    return us.empty() ? 0.0 : us[std::min(us.size() - 1, static_cast<size_t>(q * us.size()))];
  };
  std::printf(
      "SYNC_SAMPLE_COST calls %zu ok %zu median_us %.1f p90_us %.1f max_us %.1f "
      "nonzero %zu\n",
      calls, us.size(), at(0.5), at(0.9), us.empty() ? 0.0 : us.back(), nonzero);
  std::fflush(stdout);
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  const char* counter = std::getenv("SYNC_SAMPLE_COUNTER");
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS) return -1;
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, first_gpu,
                                     sizeof(rocprofiler_agent_v0_t), nullptr);
  if (g_gpu.handle == 0) {
    std::fprintf(stderr, "sync_sample_cost: no GPU agent\n");
    return -1;
  }
  if (!build_config(counter != nullptr ? counter : "SQ_WAVES")) return -1;
  if (rocprofiler_configure_device_counting_service(g_context, rocprofiler_buffer_id_t{0}, g_gpu,
                                                    choose_config,
                                                    nullptr) != ROCPROFILER_STATUS_SUCCESS ||
      rocprofiler_start_context(g_context) != ROCPROFILER_STATUS_SUCCESS) {
    std::fprintf(stderr, "sync_sample_cost: device counting could not start\n");
    return -1;
  }
  g_thread = std::thread(measure);
  return 0;
}

void tool_fini(void*) {
  g_stop.store(true);
  if (g_thread.joinable()) g_thread.join();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "sync_sample_cost";
  static rocprofiler_tool_configure_result_t result{sizeof(result), tool_init, tool_fini, nullptr};
  return &result;
}
