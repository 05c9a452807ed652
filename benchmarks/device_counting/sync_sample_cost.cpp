// What one synchronous rocprofiler_sample_device_counting_service call costs (issue 11, item 5).
// A tool, loaded with LD_PRELOAD=libsync_sample_cost.so ROCPROFILER_LIBRARY_CTOR=1 into a GPU
// program (samples/device_counting/busy_idle --busy-ms 3000): it configures device counting of
// SQ_WAVES (or SYNC_SAMPLE_COUNTER) on the first GPU with no buffer. A thread of its own waits
// for the core's initialisation, starts the context (retrying for SYNC_SAMPLE_START_S seconds,
// default 10: PM sampling is device-wide and another process may hold it for a while), then
// makes up to SYNC_SAMPLE_CALLS (default 2000) synchronous calls with an output array, every
// SYNC_SAMPLE_GAP_US (default 500) µs, timing each, until the calls are done or the program
// ends. It always prints one line on stdout, as soon as it knows:
//   SYNC_SAMPLE_COST calls <n> ok <n> median_us <x> p99_us <x> max_us <x> nonzero <n>
//   SYNC_SAMPLE_COST failed <what failed>: <why>
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
// Never destroyed: with ROCPROFILER_LIBRARY_CTOR=1 the core's finalisation (and so tool_fini)
// runs when the core library is unloaded at exit, after this library's static destructors,
// and destroying a running std::thread ends the process (std::terminate, status 134).
std::thread* g_thread = nullptr;

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
  return false;
}

void choose_config(rocprofiler_context_id_t context, rocprofiler_agent_id_t agent,
                   rocprofiler_device_counting_agent_cb_t set_config, void*) {
  if (agent.handle == g_gpu.handle) set_config(context, g_config);
}

// The one result line, printed once, whichever path gets there first.
void report(const std::string& line) {
  static std::atomic<bool> printed{false};
  if (printed.exchange(true)) return;
  std::printf("SYNC_SAMPLE_COST %s\n", line.c_str());
  std::fflush(stdout);
}

std::string status_text(rocprofiler_status_t status) {
  const char* why = nullptr;
  rocprofiler_device_sampling_last_error(&why);
  return std::string(rocprofiler_get_status_string(status)) + " (" + std::to_string(status) + ")" +
         (why != nullptr && *why != '\0' ? std::string(": ") + why : std::string());
}

// The context starts here rather than in tool_init: with ROCPROFILER_LIBRARY_CTOR=1 the tool
// initialises inside the library constructor, before the program has touched CUDA.
bool start_with_retries() {
  int initialised = 0;
  while (!g_stop.load() && rocprofiler_is_initialized(&initialised) == ROCPROFILER_STATUS_SUCCESS &&
         initialised != 1)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::seconds(env_number("SYNC_SAMPLE_START_S", 10));
  rocprofiler_status_t status = ROCPROFILER_STATUS_ERROR;
  while (!g_stop.load()) {
    status = rocprofiler_start_context(g_context);
    if (status == ROCPROFILER_STATUS_SUCCESS) return true;
    if (std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  report("failed start of device counting: " + status_text(status));
  return false;
}

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()))];
}

void measure() {
  if (!start_with_retries()) return;
  const size_t calls = env_number("SYNC_SAMPLE_CALLS", 2000);
  const auto gap = std::chrono::microseconds(env_number("SYNC_SAMPLE_GAP_US", 500));
  std::vector<double> us;
  us.reserve(calls);
  size_t made = 0, nonzero = 0;
  rocprofiler_status_t last_error = ROCPROFILER_STATUS_SUCCESS;
  rocprofiler_counter_record_t records[64];
  for (; made < calls && !g_stop.load(); ++made) {
    size_t count = sizeof(records) / sizeof(records[0]);
    const auto start = std::chrono::steady_clock::now();
    const rocprofiler_status_t status = rocprofiler_sample_device_counting_service(
        g_context, rocprofiler_user_data_t{}, ROCPROFILER_COUNTER_FLAG_NONE, records, &count);
    const auto end = std::chrono::steady_clock::now();
    if (status == ROCPROFILER_STATUS_SUCCESS) {
      us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
      if (count > 0 && records[0].counter_value > 0) ++nonzero;
    } else {
      last_error = status;
      if (status == ROCPROFILER_STATUS_ERROR_FINALIZED) break;  // the program is ending
    }
    std::this_thread::sleep_for(gap);
  }
  rocprofiler_stop_context(g_context);
  if (us.empty()) {
    report("failed every sample call (" + std::to_string(made) + "): " + status_text(last_error));
    return;
  }
  std::sort(us.begin(), us.end());
  char line[256];
  std::snprintf(line, sizeof(line),
                "calls %zu ok %zu median_us %.1f p99_us %.1f max_us %.1f nonzero %zu", made,
                us.size(), quantile(us, 0.5), quantile(us, 0.99), us.back(), nonzero);
  report(line);
}

int fail_init(const std::string& why) {
  report("failed tool initialisation: " + why);
  return -1;
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  const char* counter = std::getenv("SYNC_SAMPLE_COUNTER");
  if (rocprofiler_create_context(&g_context) != ROCPROFILER_STATUS_SUCCESS)
    return fail_init("no context");
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, first_gpu,
                                     sizeof(rocprofiler_agent_v0_t), nullptr);
  if (g_gpu.handle == 0) return fail_init("no GPU agent");
  const std::string wanted = counter != nullptr ? counter : "SQ_WAVES";
  if (!build_config(wanted)) return fail_init("the GPU has no counter " + wanted);
  const rocprofiler_status_t configured = rocprofiler_configure_device_counting_service(
      g_context, rocprofiler_buffer_id_t{0}, g_gpu, choose_config, nullptr);
  if (configured != ROCPROFILER_STATUS_SUCCESS)
    return fail_init("device counting not configured: " + status_text(configured));
  g_thread = new std::thread(measure);
  return 0;
}

void tool_fini(void*) {
  g_stop.store(true);
  if (g_thread != nullptr && g_thread->joinable()) g_thread->join();
  report("failed: the program ended before the measurement started");
}

}  // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id) {
  id->name = "sync_sample_cost";
  static rocprofiler_tool_configure_result_t result{sizeof(result), tool_init, tool_fini, nullptr};
  return &result;
}
