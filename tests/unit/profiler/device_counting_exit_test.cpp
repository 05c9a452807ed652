// The process exit of a tool that samples the device counting service synchronously from a
// thread of its own, restarting its context for every sample (the pattern of AMD's
// device_counting_sync client, which ended with "double free or corruption" on the H100).
//
// The contract: a backend's device sampler is never called after the libraries it set up
// lazily at its first start are torn down at exit. Those libraries' static destructors run in
// exit()'s reverse order, so before the core's finalisation (registered earlier), while the
// tool's thread is still inside a start. The test backend's teardown probe plays CUPTI: a
// static built at its first start, starts that take 150 ms, and exit status 3 for any call
// after the static's destruction.
//
// The main function returns while the tool's thread is inside its second start. Passing: exit
// status 0 and "sampler thread joined" printed by the tool's finalisation.
#include <dlfcn.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

struct sync_tool {
  rocprofiler_context_id_t context{};
  rocprofiler_agent_id_t gpu{};
  rocprofiler_counter_config_id_t config{};
  std::thread thread;
  std::atomic<bool> quit{false};
  int cycles = 0;
  std::vector<rocprofiler_status_t> sample_status;
};

sync_tool& tool() {
  static auto* t = new sync_tool;  // used by the exit handlers: never destroyed
  return *t;
}

uint64_t starts_entered() {
  const std::string path =
      std::string(ROCPROF_TEST_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  using fn = uint64_t (*)();
  auto f =
      h != nullptr ? reinterpret_cast<fn>(dlsym(h, "test_backend_device_starts_entered")) : nullptr;
  return f != nullptr ? f() : 0;
}

rocprofiler_status_t find_gpu(rocprofiler_agent_version_t, const void** agents, size_t n, void*) {
  for (size_t i = 0; i < n; ++i) {
    const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
    if (a->type == ROCPROFILER_AGENT_TYPE_GPU) tool().gpu = a->id;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

void choose_config(rocprofiler_context_id_t ctx, rocprofiler_agent_id_t,
                   rocprofiler_device_counting_agent_cb_t set_config, void*) {
  set_config(ctx, tool().config);
}

// One sample as AMD's sync client takes it: start, wait, read into an array, stop.
void sample_loop() {
  int initialised = 0;
  while (rocprofiler_is_initialized(&initialised) == ROCPROFILER_STATUS_SUCCESS && initialised != 1)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  sync_tool& t = tool();
  while (!t.quit.load()) {
    rocprofiler_start_context(t.context);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    rocprofiler_counter_record_t records[4] = {};
    size_t count = 4;
    t.sample_status.push_back(rocprofiler_sample_device_counting_service(
        t.context, {}, ROCPROFILER_COUNTER_FLAG_NONE, records, &count));
    rocprofiler_stop_context(t.context);
    ++t.cycles;
  }
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  sync_tool& t = tool();
  rocprofiler_create_context(&t.context);
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, find_gpu,
                                     sizeof(rocprofiler_agent_v0_t), nullptr);
  std::vector<rocprofiler_counter_id_t> all;
  rocprofiler_iterate_agent_supported_counters(
      t.gpu,
      [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* c, size_t n, void* user) {
        static_cast<std::vector<rocprofiler_counter_id_t>*>(user)->assign(c, c + n);
        return ROCPROFILER_STATUS_SUCCESS;
      },
      &all);
  for (rocprofiler_counter_id_t id : all) {
    rocprofiler_counter_info_v0_t info{};
    rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
    if (std::string(info.name) == "SQ_WAVES")
      rocprofiler_create_counter_config(t.gpu, &id, 1, &t.config);
  }
  if (t.config.handle == 0 || rocprofiler_configure_device_counting_service(
                                  t.context, rocprofiler_buffer_id_t{0}, t.gpu, choose_config,
                                  nullptr) != ROCPROFILER_STATUS_SUCCESS) {
    std::fprintf(stderr, "could not configure the device counting service\n");
    return -1;
  }
  t.thread = std::thread(sample_loop);
  return 0;
}

void tool_fini(void*) {
  sync_tool& t = tool();
  t.quit.store(true);
  if (t.thread.joinable()) t.thread.join();
  std::printf("sampler thread joined after %d cycles; last sample status %d\n", t.cycles,
              t.sample_status.empty() ? -1 : static_cast<int>(t.sample_status.back()));
  std::fflush(stdout);
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "device_counting_exit_test";
  static rocprofiler_tool_configure_result_t result{sizeof(result), tool_init, tool_fini, nullptr};
  return &result;
}

}  // namespace

int main() {
  setenv("ROCPROF_BACKEND_DIR", ROCPROF_TEST_BACKEND_DIR, 1);
  setenv("ROCPROFILER_METRICS_PATH", ROCPROF_TEST_COUNTER_DEFS_DIR, 1);
  setenv("ROCPROF_TEST_SAMPLER_TEARDOWN_PROBE", "1", 1);
  if (rocprofiler_force_configure(configure) != ROCPROFILER_STATUS_SUCCESS) return 1;
  // Return while the tool's thread is inside its second start.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (starts_entered() < 2) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "the tool's thread never started sampling twice\n");
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return 0;
}
