// The device counting service and the SPM service against the test backend's device sampler
// (test_backend_sampler.cpp): configuration status codes, the start / sample / stop state
// machine, accumulation between samples, synchronous and asynchronous reads, buffers, one
// context per agent, the SPM timeline records, and what the hardware refuses (passes,
// interval). A process of its own: its tool configures the services at initialisation.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

struct tool {
  rocprofiler_context_id_t counting{}, unbuffered{}, conflicting{}, spm{}, spm_passes{},
      spm_interval{}, plain{};
  rocprofiler_buffer_id_t counter_buffer{}, spm_buffer{};
  rocprofiler_agent_id_t gpu{};
  uint64_t waves_config = 0, timeline_config = 0, four_pass_config = 0;
  std::map<std::string, rocprofiler_status_t> status;  // what configuration returned
  std::mutex mutex;
  int callbacks = 0;
  rocprofiler_device_counting_agent_cb_t set_config = nullptr;
  std::map<std::string, rocprofiler_status_t> in_callback;  // set_config's answers
  std::vector<rocprofiler_counter_record_t> buffered;
  std::vector<rocprofiler_spm_sample_record_t> spm_records;
};

tool& state() {
  static tool t;
  return t;
}

template <typename Fn>
Fn backend_fn(const char* name) {
  const std::string path =
      std::string(ROCPROF_TEST_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  return h != nullptr ? reinterpret_cast<Fn>(dlsym(h, name)) : nullptr;
}

uint64_t deliver(uint32_t n, double value, uint64_t start = 1000000, uint32_t skip = 0) {
  using fn = uint64_t (*)(uint32_t, double, uint64_t, uint32_t);
  static fn f = backend_fn<fn>("test_backend_device_samples");
  return f != nullptr ? f(n, value, start, skip) : 0;
}

void counting_cb(rocprofiler_context_id_t ctx, rocprofiler_agent_id_t,
                 rocprofiler_device_counting_agent_cb_t set_config, void*) {
  tool& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  ++t.callbacks;
  t.set_config = set_config;
  t.in_callback["unknown_config"] = set_config(ctx, rocprofiler_counter_config_id_t{99999});
  t.in_callback["no_service"] =
      set_config(t.plain, rocprofiler_counter_config_id_t{t.waves_config});
  size_t n = 1;
  rocprofiler_counter_record_t rec{};
  t.in_callback["sample_while_starting"] =
      rocprofiler_sample_device_counting_service(ctx, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, &n);
  t.in_callback["set"] = set_config(ctx, rocprofiler_counter_config_id_t{t.waves_config});
}

void buffer_cb(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*, uint64_t) {
  tool& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (size_t i = 0; i < n; ++i) {
    const rocprofiler_record_header_t* h = headers[i];
    if (h->category != ROCPROFILER_BUFFER_CATEGORY_COUNTERS) continue;
    if (h->kind == ROCPROFILER_COUNTER_RECORD_VALUE)
      t.buffered.push_back(*static_cast<const rocprofiler_counter_record_t*>(h->payload));
    if (h->kind == ROCPROFILER_COUNTER_RECORD_SPM_SAMPLE)
      t.spm_records.push_back(*static_cast<const rocprofiler_spm_sample_record_t*>(h->payload));
  }
}

rocprofiler_status_t find_gpu(rocprofiler_agent_version_t, const void** agents, size_t n, void*) {
  for (size_t i = 0; i < n; ++i) {
    const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
    if (a->type == ROCPROFILER_AGENT_TYPE_GPU) state().gpu = a->id;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

uint64_t config_of(const std::vector<std::string>& names) {
  std::vector<rocprofiler_counter_id_t> all, chosen;
  rocprofiler_iterate_agent_supported_counters(
      state().gpu,
      [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* c, size_t n, void* user) {
        static_cast<std::vector<rocprofiler_counter_id_t>*>(user)->assign(c, c + n);
        return ROCPROFILER_STATUS_SUCCESS;
      },
      &all);
  for (const std::string& name : names)
    for (const rocprofiler_counter_id_t id : all) {
      rocprofiler_counter_info_v0_t info{};
      rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
      if (name == info.name) chosen.push_back(id);
    }
  rocprofiler_counter_config_id_t config{0};
  rocprofiler_create_counter_config(state().gpu, chosen.data(), chosen.size(), &config);
  return config.handle;
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  tool& t = state();
  auto& s = t.status;
  for (auto* ctx : {&t.counting, &t.unbuffered, &t.conflicting, &t.spm, &t.spm_passes,
                    &t.spm_interval, &t.plain})
    rocprofiler_create_context(ctx);
  rocprofiler_create_buffer(t.counting, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb,
                            nullptr, &t.counter_buffer);
  rocprofiler_create_buffer(t.spm, 1 << 16, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb,
                            nullptr, &t.spm_buffer);
  // Loads the counter backend; the agent id is not known yet.
  s["unknown_agent"] = rocprofiler_configure_device_counting_service(
      t.counting, t.counter_buffer, rocprofiler_agent_id_t{424242}, counting_cb, nullptr);
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, find_gpu,
                                     sizeof(rocprofiler_agent_v0_t), nullptr);
  t.waves_config = config_of({"SQ_WAVES"});
  t.timeline_config = config_of({"SQ_WAVES", "FETCH_SIZE"});
  t.four_pass_config = config_of({"smsp__warps_launched.sum", "dram__bytes_read.sum",
                                  "dram__bytes_write.sum", "test__per_instance.sum"});
  s["unknown_context"] = rocprofiler_configure_device_counting_service(
      rocprofiler_context_id_t{999}, t.counter_buffer, t.gpu, counting_cb, nullptr);
  s["unknown_buffer"] = rocprofiler_configure_device_counting_service(
      t.counting, rocprofiler_buffer_id_t{999}, t.gpu, counting_cb, nullptr);
  s["counting"] = rocprofiler_configure_device_counting_service(t.counting, t.counter_buffer, t.gpu,
                                                                counting_cb, nullptr);
  s["counting_again"] = rocprofiler_configure_device_counting_service(t.counting, t.counter_buffer,
                                                                      t.gpu, counting_cb, nullptr);
  s["unbuffered"] = rocprofiler_configure_device_counting_service(
      t.unbuffered, rocprofiler_buffer_id_t{0}, t.gpu, counting_cb, nullptr);
  s["conflicting"] = rocprofiler_configure_device_counting_service(
      t.conflicting, rocprofiler_buffer_id_t{0}, t.gpu, counting_cb, nullptr);
  const rocprofiler_counter_config_id_t timeline{t.timeline_config};
  s["spm_zero_interval"] = rocprofiler_configure_spm_service(t.spm, t.spm_buffer, timeline, 0);
  s["spm_unknown_config"] = rocprofiler_configure_spm_service(
      t.spm, t.spm_buffer, rocprofiler_counter_config_id_t{99999}, 100000);
  s["spm"] = rocprofiler_configure_spm_service(t.spm, t.spm_buffer, timeline, 100000);
  s["spm_again"] = rocprofiler_configure_spm_service(t.spm, t.spm_buffer, timeline, 100000);
  s["spm_passes"] = rocprofiler_configure_spm_service(
      t.spm_passes, t.spm_buffer, rocprofiler_counter_config_id_t{t.four_pass_config}, 100000);
  s["spm_interval"] =
      rocprofiler_configure_spm_service(t.spm_interval, t.spm_buffer, timeline, 500);
  return 0;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "device_counting_test";
  static rocprofiler_tool_configure_result_t result{sizeof(result), tool_init, nullptr, nullptr};
  return &result;
}

class environment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv("ROCPROF_BACKEND_DIR", ROCPROF_TEST_BACKEND_DIR, 1);
    setenv("ROCPROFILER_METRICS_PATH", ROCPROF_TEST_COUNTER_DEFS_DIR, 1);
    ASSERT_EQ(rocprofiler_force_configure(configure), ROCPROFILER_STATUS_SUCCESS);
  }
};
const auto* g_env = ::testing::AddGlobalTestEnvironment(new environment());

rocprofiler_user_data_t user(uint64_t v) {
  rocprofiler_user_data_t u{};
  u.value = v;
  return u;
}

std::string last_error() {
  const char* why = nullptr;
  EXPECT_EQ(rocprofiler_device_sampling_last_error(&why), ROCPROFILER_STATUS_SUCCESS);
  return why != nullptr ? why : "";
}

std::string name_of(rocprofiler_counter_instance_id_t instance) {
  rocprofiler_counter_id_t id{};
  rocprofiler_query_record_counter_id(instance, &id);
  rocprofiler_counter_info_v0_t info{};
  rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
  return info.name != nullptr ? info.name : "";
}

double sample_waves(rocprofiler_context_id_t ctx, rocprofiler_status_t* status = nullptr) {
  rocprofiler_counter_record_t recs[4] = {};
  size_t n = 4;
  const rocprofiler_status_t s = rocprofiler_sample_device_counting_service(
      ctx, user(77), ROCPROFILER_COUNTER_FLAG_NONE, recs, &n);
  if (status != nullptr) *status = s;
  if (s != ROCPROFILER_STATUS_SUCCESS || n != 1) return -1;
  EXPECT_EQ(name_of(recs[0].id), "SQ_WAVES");
  EXPECT_EQ(recs[0].agent_id.handle, state().gpu.handle);
  EXPECT_EQ(recs[0].user_data.value, 77u);
  EXPECT_EQ(recs[0].dispatch_id, 0u);
  return recs[0].counter_value;
}

}  // namespace

TEST(device_counting, configuration_status_codes) {
  const auto& s = state().status;
  EXPECT_EQ(s.at("unknown_agent"), ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
  EXPECT_EQ(s.at("unknown_context"), ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(s.at("unknown_buffer"), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(s.at("counting"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(s.at("counting_again"), ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(s.at("unbuffered"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(s.at("spm_zero_interval"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.at("spm_unknown_config"), ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
  EXPECT_EQ(s.at("spm"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(s.at("spm_again"), ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(rocprofiler_configure_device_counting_service(
                state().plain, rocprofiler_buffer_id_t{0}, state().gpu,
                [](rocprofiler_context_id_t, rocprofiler_agent_id_t,
                   rocprofiler_device_counting_agent_cb_t, void*) {},
                nullptr),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST(device_counting, sample_misuse_before_and_without_start) {
  tool& t = state();
  size_t n = 1;
  rocprofiler_counter_record_t rec{};
  EXPECT_EQ(rocprofiler_sample_device_counting_service(rocprofiler_context_id_t{999}, {},
                                                       ROCPROFILER_COUNTER_FLAG_NONE, &rec, &n),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(rocprofiler_sample_device_counting_service(t.counting, {},
                                                       ROCPROFILER_COUNTER_FLAG_NONE, &rec, &n),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);
  ASSERT_EQ(rocprofiler_start_context(t.plain), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_sample_device_counting_service(t.plain, {}, ROCPROFILER_COUNTER_FLAG_NONE,
                                                       &rec, &n),
            ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
  rocprofiler_stop_context(t.plain);
}

TEST(device_counting, start_sample_stop) {
  tool& t = state();
  ASSERT_NE(t.waves_config, 0u);
  const int callbacks = t.callbacks;
  ASSERT_EQ(rocprofiler_start_context(t.counting), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(t.callbacks, callbacks + 1);
  EXPECT_EQ(t.in_callback.at("unknown_config"), ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
  EXPECT_EQ(t.in_callback.at("no_service"), ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
  EXPECT_EQ(t.in_callback.at("sample_while_starting"), ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR);
  EXPECT_EQ(t.in_callback.at("set"), ROCPROFILER_STATUS_SUCCESS);
  // Outside the callback the config cannot change.
  EXPECT_EQ(t.set_config(t.counting, rocprofiler_counter_config_id_t{t.waves_config}),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);

  // Idle: nothing accumulated. Busy: the samples' sum. Then idle again: 0, not the total.
  EXPECT_EQ(sample_waves(t.counting), 0.0);
  EXPECT_EQ(deliver(5, 10.0), 1u);
  EXPECT_EQ(sample_waves(t.counting), 50.0);
  EXPECT_EQ(sample_waves(t.counting), 0.0);
  deliver(2, 3.0);
  EXPECT_EQ(sample_waves(t.counting), 6.0);

  // Output array misuse.
  rocprofiler_counter_record_t rec{};
  size_t none = 0;
  EXPECT_EQ(rocprofiler_sample_device_counting_service(t.counting, {},
                                                       ROCPROFILER_COUNTER_FLAG_NONE, &rec, &none),
            ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_EQ(rocprofiler_sample_device_counting_service(
                t.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  size_t one = 1;
  EXPECT_EQ(rocprofiler_sample_device_counting_service(t.counting, {},
                                                       ROCPROFILER_COUNTER_FLAG_ASYNC, &rec, &one),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);

  // One active context per agent.
  EXPECT_EQ(rocprofiler_start_context(t.conflicting), ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);
  int active = 1;
  rocprofiler_context_is_active(t.conflicting, &active);
  EXPECT_EQ(active, 0);

  ASSERT_EQ(rocprofiler_stop_context(t.counting), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(deliver(1, 1.0), 0u) << "the sampler stops with the context";
  EXPECT_EQ(rocprofiler_sample_device_counting_service(t.counting, {},
                                                       ROCPROFILER_COUNTER_FLAG_NONE, &rec, &one),
            ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);

  // Restart: the callback runs again and counting starts from zero.
  deliver(4, 4.0);
  ASSERT_EQ(rocprofiler_start_context(t.counting), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(t.callbacks, callbacks + 3);  // the refused context's callback ran too
  EXPECT_EQ(sample_waves(t.counting), 0.0);
  rocprofiler_stop_context(t.counting);
}

TEST(device_counting, buffer_receives_sync_and_async_samples) {
  tool& t = state();
  rocprofiler_flush_buffer(t.counter_buffer);  // what earlier tests' samples wrote
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    t.buffered.clear();
  }
  ASSERT_EQ(rocprofiler_start_context(t.counting), ROCPROFILER_STATUS_SUCCESS);
  deliver(3, 2.0);
  ASSERT_EQ(rocprofiler_sample_device_counting_service(
                t.counting, user(1), ROCPROFILER_COUNTER_FLAG_NONE, nullptr, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  deliver(1, 9.0);
  ASSERT_EQ(rocprofiler_sample_device_counting_service(
                t.counting, user(2), ROCPROFILER_COUNTER_FLAG_ASYNC, nullptr, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  // The asynchronous read lands in the buffer later.
  for (int i = 0; i < 200; ++i) {
    rocprofiler_flush_buffer(t.counter_buffer);
    std::lock_guard<std::mutex> lock(t.mutex);
    if (t.buffered.size() >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  rocprofiler_stop_context(t.counting);
  std::lock_guard<std::mutex> lock(t.mutex);
  ASSERT_EQ(t.buffered.size(), 2u);
  EXPECT_EQ(t.buffered[0].user_data.value, 1u);
  EXPECT_EQ(t.buffered[0].counter_value, 6.0);
  EXPECT_EQ(t.buffered[1].user_data.value, 2u);
  EXPECT_EQ(t.buffered[1].counter_value, 9.0);
}

TEST(device_counting, unbuffered_context_returns_values_only) {
  tool& t = state();
  ASSERT_EQ(rocprofiler_start_context(t.unbuffered), ROCPROFILER_STATUS_SUCCESS);
  deliver(2, 5.0);
  EXPECT_EQ(sample_waves(t.unbuffered), 10.0);
  rocprofiler_stop_context(t.unbuffered);
}

TEST(spm, every_sample_becomes_timeline_records) {
  tool& t = state();
  ASSERT_EQ(rocprofiler_start_context(t.spm), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(deliver(2, 32.0, 5000000), 1u);
  deliver(1, 64.0, 9000000, /*skip=*/3);
  rocprofiler_stop_context(t.spm);
  rocprofiler_flush_buffer(t.spm_buffer);
  std::lock_guard<std::mutex> lock(t.mutex);
  ASSERT_EQ(t.spm_records.size(), 6u);  // 3 samples x (SQ_WAVES, FETCH_SIZE)
  std::map<std::string, std::vector<rocprofiler_spm_sample_record_t>> by_name;
  for (const auto& r : t.spm_records) {
    EXPECT_EQ(r.size, sizeof(r));
    EXPECT_EQ(r.agent_id.handle, t.gpu.handle);
    EXPECT_EQ(r.end_timestamp - r.start_timestamp, 1000u);
    by_name[name_of(r.id)].push_back(r);
  }
  ASSERT_EQ(by_name["SQ_WAVES"].size(), 3u);
  ASSERT_EQ(by_name["FETCH_SIZE"].size(), 3u);
  // The natives arrive in config order: warps read value, DRAM bytes 2 x value.
  EXPECT_EQ(by_name["SQ_WAVES"][0].counter_value, 32.0);
  EXPECT_EQ(by_name["SQ_WAVES"][0].start_timestamp, 5000000u);
  EXPECT_EQ(by_name["SQ_WAVES"][2].counter_value, 64.0);
  EXPECT_EQ(by_name["SQ_WAVES"][2].sample_index, 6u);  // 1, 2, then 3 lost
  EXPECT_EQ(by_name["FETCH_SIZE"][2].counter_value, 2 * 64.0 / 1024);
}

TEST(spm, hardware_refusals_leave_the_context_stopped) {
  tool& t = state();
  EXPECT_EQ(rocprofiler_start_context(t.spm_passes), ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
  const std::string why = last_error();
  EXPECT_NE(why.find("passes"), std::string::npos) << why;
  EXPECT_NE(why.find("dram__bytes_write.sum"), std::string::npos) << why;
  int active = 1;
  rocprofiler_context_is_active(t.spm_passes, &active);
  EXPECT_EQ(active, 0);
  EXPECT_EQ(rocprofiler_start_context(t.spm_interval), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("minimum"), std::string::npos);
  EXPECT_EQ(deliver(1, 1.0), 0u) << "nothing keeps sampling";
}
