// The core's counter API against the test backend's fake native counters: iterate/query,
// dimensions and instance ids, configs, counters added at run time, the dispatch counting
// service in its callback and buffered forms, and the status codes of misuse. A process of its
// own: its tool configures counting contexts when the core initialises.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct delivered_dispatch {
  rocprofiler_dispatch_counting_service_data_t data{};
  std::vector<rocprofiler_counter_record_t> records;
  uint64_t user_data = 0;
};

struct tool {
  rocprofiler_context_id_t callback_ctx{}, buffer_ctx{}, second_ctx{}, trace_ctx{};
  rocprofiler_buffer_id_t counter_buffer{}, trace_buffer{};
  rocprofiler_agent_id_t gpu{}, cpu{};
  // Status codes of misuse seen while configuring.
  std::map<std::string, rocprofiler_status_t> init_status;
  std::mutex mutex;
  uint64_t chosen_config = 0;  // what the dispatch callback picks (0: none)
  uint64_t dispatch_callbacks = 0;
  std::vector<delivered_dispatch> dispatches;                           // record callback
  std::vector<rocprofiler_dispatch_counting_service_record_t> headers;  // buffered form
  std::vector<rocprofiler_counter_record_t> buffered;
  std::vector<uint32_t> buffered_kinds;
  std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> kernels;
};

tool& state() {
  static tool t;
  return t;
}

using launch_fn = uint64_t (*)(uint32_t);
launch_fn launch() {
  static launch_fn fn = [] {
    const std::string path =
        std::string(ROCPROF_TEST_BACKEND_DIR) + "/librocprofiler-sdk-testbackend.so";
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    return h != nullptr ? reinterpret_cast<launch_fn>(dlsym(h, "test_backend_counted_launch"))
                        : nullptr;
  }();
  return fn;
}

void dispatch_cb(rocprofiler_dispatch_counting_service_data_t,
                 rocprofiler_counter_config_id_t* config, rocprofiler_user_data_t* user_data,
                 void*) {
  tool& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  ++t.dispatch_callbacks;
  config->handle = t.chosen_config;
  user_data->value = 4242;
}

void record_cb(rocprofiler_dispatch_counting_service_data_t data,
               rocprofiler_counter_record_t* records, size_t count,
               rocprofiler_user_data_t user_data, void*) {
  tool& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  delivered_dispatch d;
  d.data = data;
  d.records.assign(records, records + count);
  d.user_data = user_data.value;
  t.dispatches.push_back(std::move(d));
}

void buffer_cb(rocprofiler_context_id_t, rocprofiler_buffer_id_t,
               rocprofiler_record_header_t** headers, size_t n, void*, uint64_t) {
  tool& t = state();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (size_t i = 0; i < n; ++i) {
    const rocprofiler_record_header_t* h = headers[i];
    if (h->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
        h->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) {
      t.kernels.push_back(
          *static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h->payload));
      continue;
    }
    if (h->category != ROCPROFILER_BUFFER_CATEGORY_COUNTERS) continue;
    t.buffered_kinds.push_back(h->kind);
    if (h->kind == ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER)
      t.headers.push_back(
          *static_cast<const rocprofiler_dispatch_counting_service_record_t*>(h->payload));
    else if (h->kind == ROCPROFILER_COUNTER_RECORD_VALUE)
      t.buffered.push_back(*static_cast<const rocprofiler_counter_record_t*>(h->payload));
  }
}

rocprofiler_status_t find_agents(rocprofiler_agent_version_t, const void** agents, size_t n,
                                 void*) {
  for (size_t i = 0; i < n; ++i) {
    const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
    if (a->type == ROCPROFILER_AGENT_TYPE_GPU) state().gpu = a->id;
    if (a->type == ROCPROFILER_AGENT_TYPE_CPU) state().cpu = a->id;
  }
  return ROCPROFILER_STATUS_SUCCESS;
}

int tool_init(rocprofiler_client_finalize_t, void*) {
  tool& t = state();
  auto& s = t.init_status;
  // -E style definitions, before any catalogue exists; a text with an error is refused.
  const std::string extra = R"(rocprofiler-sdk:
  counters-schema-version: 1
  counters:
  - name: EXTRA_BYTES
    description: read and written
    properties: []
    definitions:
    - architectures: [sm_90]
      expression: dram__bytes_read.sum+dram__bytes_write.sum
)";
  const std::string bad =
      "rocprofiler-sdk: {counters-schema-version: 1, counters: [{name: X, definitions: "
      "[{architectures: [sm_90], expression: 'reduce(a,summ)'}]}]}";
  s["load_bad"] = rocprofiler_load_counter_definition(bad.data(), bad.size(),
                                                      ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION);
  s["load_extra"] = rocprofiler_load_counter_definition(extra.data(), extra.size(),
                                                        ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION);

  for (auto* ctx : {&t.callback_ctx, &t.buffer_ctx, &t.second_ctx, &t.trace_ctx})
    rocprofiler_create_context(ctx);
  rocprofiler_create_buffer(t.buffer_ctx, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb,
                            nullptr, &t.counter_buffer);
  rocprofiler_create_buffer(t.trace_ctx, 4096, 0, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb,
                            nullptr, &t.trace_buffer);
  s["callback"] = rocprofiler_configure_callback_dispatch_counting_service(
      t.callback_ctx, dispatch_cb, nullptr, record_cb, nullptr);
  s["callback_again"] = rocprofiler_configure_callback_dispatch_counting_service(
      t.callback_ctx, dispatch_cb, nullptr, record_cb, nullptr);
  s["no_record_callback"] = rocprofiler_configure_callback_dispatch_counting_service(
      t.second_ctx, dispatch_cb, nullptr, nullptr, nullptr);
  s["no_dispatch_callback"] = rocprofiler_configure_buffer_dispatch_counting_service(
      t.second_ctx, t.counter_buffer, nullptr, nullptr);
  s["unknown_buffer"] = rocprofiler_configure_buffer_dispatch_counting_service(
      t.second_ctx, rocprofiler_buffer_id_t{999}, dispatch_cb, nullptr);
  s["unknown_context"] = rocprofiler_configure_buffer_dispatch_counting_service(
      rocprofiler_context_id_t{999}, t.counter_buffer, dispatch_cb, nullptr);
  s["buffered"] = rocprofiler_configure_buffer_dispatch_counting_service(
      t.buffer_ctx, t.counter_buffer, dispatch_cb, nullptr);
  s["second"] = rocprofiler_configure_callback_dispatch_counting_service(
      t.second_ctx, dispatch_cb, nullptr, record_cb, nullptr);
  rocprofiler_configure_buffer_tracing_service(
      t.trace_ctx, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, t.trace_buffer);
  rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0, find_agents,
                                     sizeof(rocprofiler_agent_v0_t), nullptr);
  rocprofiler_start_context(t.trace_ctx);
  return 0;
}

rocprofiler_tool_configure_result_t* configure(uint32_t, const char*, uint32_t,
                                               rocprofiler_client_id_t* id) {
  id->name = "counters_test";
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

std::map<std::string, rocprofiler_counter_id_t> counters_of(rocprofiler_agent_id_t agent) {
  std::vector<rocprofiler_counter_id_t> ids;
  EXPECT_EQ(rocprofiler_iterate_agent_supported_counters(
                agent,
                [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* c, size_t n, void* user) {
                  auto* out = static_cast<std::vector<rocprofiler_counter_id_t>*>(user);
                  out->assign(c, c + n);
                  return ROCPROFILER_STATUS_SUCCESS;
                },
                &ids),
            ROCPROFILER_STATUS_SUCCESS);
  std::map<std::string, rocprofiler_counter_id_t> by_name;
  for (const rocprofiler_counter_id_t id : ids) {
    rocprofiler_counter_info_v0_t info{};
    EXPECT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(by_name.count(info.name), 0u) << info.name;
    by_name[info.name] = id;
  }
  return by_name;
}

uint64_t make_config(std::vector<std::string> names) {
  const auto all = counters_of(state().gpu);
  std::vector<rocprofiler_counter_id_t> ids;
  for (const std::string& n : names)
    ids.push_back(all.at(n));
  rocprofiler_counter_config_id_t config{0};
  EXPECT_EQ(rocprofiler_create_counter_config(state().gpu, ids.data(), ids.size(), &config),
            ROCPROFILER_STATUS_SUCCESS);
  return config.handle;
}

std::string name_of_record(const rocprofiler_counter_record_t& r) {
  rocprofiler_counter_id_t id{};
  EXPECT_EQ(rocprofiler_query_record_counter_id(r.id, &id), ROCPROFILER_STATUS_SUCCESS);
  rocprofiler_counter_info_v0_t info{};
  EXPECT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
            ROCPROFILER_STATUS_SUCCESS);
  return info.name;
}

}  // namespace

TEST(counters, configuration_status_codes) {
  const auto& s = state().init_status;
  EXPECT_EQ(s.at("load_bad"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.at("load_extra"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(s.at("callback"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(s.at("callback_again"), ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(s.at("no_record_callback"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.at("no_dispatch_callback"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s.at("unknown_buffer"), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(s.at("unknown_context"), ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
  EXPECT_EQ(s.at("buffered"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(s.at("second"), ROCPROFILER_STATUS_SUCCESS);
  // Outside initialisation.
  EXPECT_EQ(rocprofiler_configure_callback_dispatch_counting_service(
                state().second_ctx, dispatch_cb, nullptr, record_cb, nullptr),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
  // Definitions after a catalogue exists.
  counters_of(state().gpu);
  EXPECT_EQ(rocprofiler_load_counter_definition("", 0, ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION),
            ROCPROFILER_STATUS_ERROR);
}

TEST(counters, agent_offers_native_derived_and_constant_counters) {
  ASSERT_NE(state().gpu.handle, 0u);
  const auto all = counters_of(state().gpu);
  for (const char* name : {"smsp__warps_launched.sum", "dram__bytes_read.sum", "simd_count",
                           "SQ_WAVES", "FETCH_SIZE", "INSTANCE_TOTAL", "CU_NUM", "EXTRA_BYTES"})
    EXPECT_EQ(all.count(name), 1u) << name;
  EXPECT_EQ(all.count("OTHER_ARCH_ONLY"), 0u);

  rocprofiler_counter_info_v0_t waves{};
  ASSERT_EQ(rocprofiler_query_counter_info(all.at("SQ_WAVES"), ROCPROFILER_COUNTER_INFO_VERSION_0,
                                           &waves),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(waves.expression, "smsp__warps_launched.sum");
  EXPECT_EQ(waves.is_derived, 1u);
  EXPECT_EQ(waves.is_constant, 0u);
  rocprofiler_counter_info_v0_t cu{};
  rocprofiler_query_counter_info(all.at("CU_NUM"), ROCPROFILER_COUNTER_INFO_VERSION_0, &cu);
  EXPECT_EQ(cu.is_constant, 1u);
  rocprofiler_counter_info_v0_t native{};
  rocprofiler_query_counter_info(all.at("dram__bytes_read.sum"), ROCPROFILER_COUNTER_INFO_VERSION_0,
                                 &native);
  EXPECT_STREQ(native.block, "dram");
  EXPECT_EQ(native.is_derived, 0u);

  // Ids are one per name for the process: the same on a second iteration.
  EXPECT_EQ(counters_of(state().gpu).at("SQ_WAVES").handle, all.at("SQ_WAVES").handle);
}

TEST(counters, iterate_and_query_misuse) {
  auto cb = [](rocprofiler_agent_id_t, rocprofiler_counter_id_t*, size_t, void*) {
    return ROCPROFILER_STATUS_SUCCESS;
  };
  EXPECT_EQ(rocprofiler_iterate_agent_supported_counters(rocprofiler_agent_id_t{9999}, cb, nullptr),
            ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
  EXPECT_EQ(rocprofiler_iterate_agent_supported_counters(state().cpu, cb, nullptr),
            ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED);
  rocprofiler_counter_info_v0_t info{};
  EXPECT_EQ(rocprofiler_query_counter_info(rocprofiler_counter_id_t{999999},
                                           ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
            ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
  const auto all = counters_of(state().gpu);
  EXPECT_EQ(rocprofiler_query_counter_info(all.at("SQ_WAVES"),
                                           ROCPROFILER_COUNTER_INFO_VERSION_LAST, &info),
            ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI);
}

TEST(counters, dimensions_and_instances) {
  const auto all = counters_of(state().gpu);
  rocprofiler_counter_info_v1_t per{};
  ASSERT_EQ(rocprofiler_query_counter_info(all.at("test__per_instance.sum"),
                                           ROCPROFILER_COUNTER_INFO_VERSION_1, &per),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(per.size, sizeof(per));
  ASSERT_EQ(per.dimensions_count, 1u);
  EXPECT_STREQ(per.dimensions[0]->name, "DIMENSION_INSTANCE");
  EXPECT_EQ(per.dimensions[0]->instance_size, 4u);
  EXPECT_EQ(per.dimensions[0]->id, 7u);  // rocprofiler-sdk's ROCPROFILER_DIMENSION_INSTANCE
  ASSERT_EQ(per.dimensions_instances_count, 4u);
  for (size_t i = 0; i < 4; ++i) {
    const auto* inst = per.dimensions_instances[i];
    EXPECT_EQ(inst->counter_id, all.at("test__per_instance.sum").handle);
    ASSERT_EQ(inst->dimensions_count, 1u);
    EXPECT_EQ(inst->dimensions[0]->index, i);
    size_t pos = 99;
    EXPECT_EQ(rocprofiler_query_record_dimension_position(inst->instance_id, 7, &pos),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(pos, i);
    rocprofiler_counter_id_t back{};
    rocprofiler_query_record_counter_id(inst->instance_id, &back);
    EXPECT_EQ(back.handle, all.at("test__per_instance.sum").handle);
  }
  // A single value is DIMENSION_INSTANCE of size 1 (as rocprofv3 lists it).
  rocprofiler_counter_info_v1_t waves{};
  rocprofiler_query_counter_info(all.at("SQ_WAVES"), ROCPROFILER_COUNTER_INFO_VERSION_1, &waves);
  ASSERT_EQ(waves.dimensions_count, 1u);
  EXPECT_EQ(waves.dimensions[0]->instance_size, 1u);
  EXPECT_EQ(waves.dimensions_instances_count, 1u);
  // The older calls agree.
  size_t n = 0;
  EXPECT_EQ(
      rocprofiler_query_counter_instance_count(state().gpu, all.at("test__per_instance.sum"), &n),
      ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(n, 4u);
  size_t dims = 0;
  EXPECT_EQ(rocprofiler_iterate_counter_dimensions(
                all.at("test__per_instance.sum"),
                [](rocprofiler_counter_id_t, const rocprofiler_counter_record_dimension_info_t* d,
                   size_t count, void* user) {
                  *static_cast<size_t*>(user) = count == 1 ? d[0].instance_size : 0;
                  return ROCPROFILER_STATUS_SUCCESS;
                },
                &dims),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(dims, 4u);
}

TEST(counters, configs) {
  const auto all = counters_of(state().gpu);
  rocprofiler_counter_config_id_t config{0};
  rocprofiler_counter_id_t waves = all.at("SQ_WAVES");
  ASSERT_EQ(rocprofiler_create_counter_config(state().gpu, &waves, 1, &config),
            ROCPROFILER_STATUS_SUCCESS);
  size_t passes = 0;
  EXPECT_EQ(rocprofiler_query_counter_config_passes(config, &passes), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(passes, 1u);
  // An existing config as base: a new config with both sets of counters.
  rocprofiler_counter_id_t more[] = {all.at("FETCH_SIZE"), all.at("EXTRA_BYTES"),
                                     all.at("INSTANCE_TOTAL")};
  rocprofiler_counter_config_id_t both = config;
  ASSERT_EQ(rocprofiler_create_counter_config(state().gpu, more, 3, &both),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_NE(both.handle, config.handle);
  EXPECT_EQ(rocprofiler_query_counter_config_passes(both, &passes), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(passes, 2u);  // 4 native counters, 3 per pass
  // Constants only: nothing to collect.
  rocprofiler_counter_id_t cu = all.at("CU_NUM");
  rocprofiler_counter_config_id_t constants{0};
  ASSERT_EQ(rocprofiler_create_counter_config(state().gpu, &cu, 1, &constants),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_query_counter_config_passes(constants, &passes),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(passes, 0u);

  rocprofiler_counter_config_id_t bad{0};
  rocprofiler_counter_id_t unknown{999999};
  EXPECT_EQ(rocprofiler_create_counter_config(state().gpu, &unknown, 1, &bad),
            ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_create_counter_config(state().gpu, nullptr, 0, &bad),
            ROCPROFILER_STATUS_ERROR_NO_HARDWARE_COUNTERS);
  EXPECT_EQ(rocprofiler_create_counter_config(rocprofiler_agent_id_t{9999}, &waves, 1, &bad),
            ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
  rocprofiler_counter_id_t clash[] = {all.at("sm__cycles_elapsed.max"),
                                      all.at("dram__bytes_write.sum")};
  EXPECT_EQ(rocprofiler_create_counter_config(state().gpu, clash, 2, &bad),
            ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
  EXPECT_EQ(bad.handle, 0u);

  EXPECT_EQ(rocprofiler_destroy_counter_config(both), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_destroy_counter_config(both), ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
  EXPECT_EQ(rocprofiler_query_counter_config_passes(both, &passes),
            ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
}

TEST(counters, counters_added_at_run_time) {
  rocprofiler_counter_id_t id{};
  EXPECT_EQ(rocprofiler_find_counter(state().gpu, "SQ_WAVES", &id), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(id.handle, counters_of(state().gpu).at("SQ_WAVES").handle);
  // A native sub-metric the backend collects but does not list.
  rocprofiler_counter_id_t rate{};
  EXPECT_EQ(rocprofiler_find_counter(state().gpu, "smsp__warps_launched.sum.per_second", &rate),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(counters_of(state().gpu).count("smsp__warps_launched.sum.per_second"), 1u);
  EXPECT_EQ(rocprofiler_find_counter(state().gpu, "no_such__metric.sum", &id),
            ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);

  const std::string name = "DOUBLE_WAVES", expr = "SQ_WAVES*2";
  rocprofiler_counter_id_t doubled{};
  ASSERT_EQ(rocprofiler_create_counter(name.data(), name.size(), expr.data(), expr.size(), nullptr,
                                       0, state().gpu, &doubled),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(counters_of(state().gpu).at("DOUBLE_WAVES").handle, doubled.handle);
  EXPECT_EQ(rocprofiler_create_counter(name.data(), name.size(), expr.data(), expr.size(), nullptr,
                                       0, state().gpu, &doubled),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  const std::string broken = "BROKEN", bad_expr = "reduce(SQ_WAVES,";
  EXPECT_EQ(rocprofiler_create_counter(broken.data(), broken.size(), bad_expr.data(),
                                       bad_expr.size(), nullptr, 0, state().gpu, &id),
            ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED);
  const std::string missing = "MISSING", missing_expr = "nothing__here.sum";
  EXPECT_EQ(rocprofiler_create_counter(missing.data(), missing.size(), missing_expr.data(),
                                       missing_expr.size(), nullptr, 0, state().gpu, &id),
            ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED);
  EXPECT_EQ(counters_of(state().gpu).count("MISSING"), 0u);
}

TEST(counters, callback_dispatch_counting) {
  ASSERT_NE(launch(), nullptr);
  tool& t = state();
  const uint64_t config =
      make_config({"SQ_WAVES", "FETCH_SIZE", "INSTANCE_TOTAL", "test__per_instance.sum", "CU_NUM"});
  ASSERT_EQ(rocprofiler_start_context(t.callback_ctx), ROCPROFILER_STATUS_SUCCESS);
  // Only one context may count at a time.
  EXPECT_EQ(rocprofiler_start_context(t.second_ctx), ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    t.chosen_config = config;
    t.dispatches.clear();
  }
  const uint64_t dispatch_id = launch()(4096);
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    t.chosen_config = 0;  // the next one is not counted
  }
  launch()(4096);
  rocprofiler_stop_context(t.callback_ctx);
  rocprofiler_flush_buffer(t.trace_buffer);

  std::lock_guard<std::mutex> lock(t.mutex);
  ASSERT_EQ(t.dispatches.size(), 1u);
  const delivered_dispatch& d = t.dispatches.front();
  EXPECT_EQ(d.user_data, 4242u);
  EXPECT_EQ(d.data.dispatch_info.dispatch_id, dispatch_id);
  EXPECT_GE(d.data.end_timestamp, d.data.start_timestamp);
  std::map<std::string, std::vector<double>> values;
  for (const auto& r : d.records) {
    EXPECT_EQ(r.dispatch_id, dispatch_id);
    EXPECT_EQ(r.user_data.value, 4242u);
    EXPECT_EQ(r.agent_id.handle, t.gpu.handle);
    values[name_of_record(r)].push_back(r.counter_value);
  }
  EXPECT_EQ(values["SQ_WAVES"], std::vector<double>{128});
  EXPECT_EQ(values["FETCH_SIZE"], std::vector<double>{16});
  EXPECT_EQ(values["INSTANCE_TOTAL"], std::vector<double>{10});
  EXPECT_EQ(values["test__per_instance.sum"], (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(values["CU_NUM"], std::vector<double>{132});
  // The counter rows join the kernel trace on dispatch id and correlation id.
  bool joined = false;
  for (const auto& k : t.kernels)
    if (k.dispatch_info.dispatch_id == dispatch_id)
      joined = k.correlation_id.internal == d.data.correlation_id.internal;
  EXPECT_TRUE(joined);
}

TEST(counters, buffered_dispatch_counting) {
  tool& t = state();
  const uint64_t config = make_config({"SQ_WAVES", "EXTRA_BYTES"});
  ASSERT_EQ(rocprofiler_start_context(t.buffer_ctx), ROCPROFILER_STATUS_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    t.chosen_config = config;
  }
  const uint64_t dispatch_id = launch()(1024);
  rocprofiler_stop_context(t.buffer_ctx);
  ASSERT_EQ(rocprofiler_flush_buffer(t.counter_buffer), ROCPROFILER_STATUS_SUCCESS);

  std::lock_guard<std::mutex> lock(t.mutex);
  t.chosen_config = 0;
  ASSERT_EQ(t.headers.size(), 1u);
  EXPECT_EQ(t.headers[0].dispatch_info.dispatch_id, dispatch_id);
  EXPECT_EQ(t.headers[0].num_records, 2u);
  ASSERT_EQ(t.buffered_kinds.size(), 3u);  // the header first, then its records
  EXPECT_EQ(t.buffered_kinds[0], ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER);
  ASSERT_EQ(t.buffered.size(), 2u);
  std::map<std::string, double> values;
  for (const auto& r : t.buffered)
    values[name_of_record(r)] = r.counter_value;
  EXPECT_EQ(values["SQ_WAVES"], 32);
  EXPECT_EQ(values["EXTRA_BYTES"], 12 * 1024);
}

TEST(counters, no_callback_without_an_active_counting_context) {
  tool& t = state();
  uint64_t before = 0;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    before = t.dispatch_callbacks;
  }
  launch()(64);
  std::lock_guard<std::mutex> lock(t.mutex);
  EXPECT_EQ(t.dispatch_callbacks, before);
}
