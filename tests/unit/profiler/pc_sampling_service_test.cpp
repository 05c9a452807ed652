// The PC sampling service of the core (pc_sampling.h) through a real backend plugin
// (test_backend.cpp, which offers what an H100 offers): configuration queries, every
// configuration rule with its status, the request handed to the backend at start, and an
// aggregated sample delivered into the context's buffer. A process of its own: configuration
// happens once, in the tool's initialize.
#include <gtest/gtest.h>
#include <rocprofiler-sdk/pc_sampling_instructions.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "pc_sampling_test_backend.hpp"

namespace {

using pc_sampling_test::backend_entry;

uint64_t test_backend_pc_sampling_interval() {
  auto fn = backend_entry<uint64_t (*)()>("test_backend_pc_sampling_interval");
  return fn != nullptr ? fn() : 0;
}

void test_backend_emit_pc_sample(uint64_t offset, uint64_t samples) {
  ASSERT_TRUE(pc_sampling_test::emit_aggregated_sample(offset, samples));
}

struct state {
  rocprofiler_context_id_t sampling_ctx{}, other_ctx{};
  rocprofiler_buffer_id_t buffer{}, other_buffer{};
  rocprofiler_agent_id_t gpu{}, cpu{};
  std::vector<rocprofiler_pc_sampling_configuration_t> offered, offered_after;
  rocprofiler_status_t query_without_beta = ROCPROFILER_STATUS_SUCCESS;
  std::map<std::string, rocprofiler_status_t> statuses;  // configure attempt -> status
  std::mutex mutex;
  std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t> samples;
  std::vector<uint32_t> categories;
  size_t standard_records = 0;  // STOCHASTIC_V0 records (none: this tool set the flag)
};

state& st() {
  static state s;
  return s;
}

void deliver(rocprofiler_context_id_t, rocprofiler_buffer_id_t, rocprofiler_record_header_t** h,
             size_t n, void*, uint64_t) {
  std::lock_guard<std::mutex> lock(st().mutex);
  for (size_t i = 0; i < n; ++i) {
    st().categories.push_back(h[i]->category);
    if (h[i]->category == ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING &&
        h[i]->kind == ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE)
      ++st().standard_records;
    if (h[i]->category == ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING &&
        h[i]->kind == ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE)
      st().samples.push_back(
          *static_cast<const rocprofiler_pc_sampling_record_aggregated_v0_t*>(h[i]->payload));
  }
}

rocprofiler_status_t collect_configs(const rocprofiler_pc_sampling_configuration_t* configs,
                                     size_t n, void* data) {
  auto* out = static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data);
  out->assign(configs, configs + n);
  return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t try_configure(rocprofiler_context_id_t ctx, rocprofiler_agent_id_t agent,
                                   rocprofiler_pc_sampling_method_t method,
                                   rocprofiler_pc_sampling_unit_t unit, uint64_t interval,
                                   rocprofiler_buffer_id_t buffer, int flags = 0) {
  return rocprofiler_configure_pc_sampling_service(ctx, agent, method, unit, interval, buffer,
                                                   flags);
}

int initialize(rocprofiler_client_finalize_t, void*) {
  state& s = st();
  rocprofiler_create_context(&s.sampling_ctx);
  rocprofiler_create_context(&s.other_ctx);
  rocprofiler_create_buffer(s.sampling_ctx, 4096, 4000, ROCPROFILER_BUFFER_POLICY_LOSSLESS, deliver,
                            nullptr, &s.buffer);
  rocprofiler_create_buffer(s.other_ctx, 4096, 4000, ROCPROFILER_BUFFER_POLICY_LOSSLESS, deliver,
                            nullptr, &s.other_buffer);
  // A GPU kind loads the test backend, which registers its agent.
  rocprofiler_configure_buffer_tracing_service(
      s.sampling_ctx, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, s.buffer);
  const pc_sampling_test::agents found = pc_sampling_test::find_agents();
  s.gpu = found.gpu;
  s.cpu = found.cpu;
  const auto stochastic = ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
  const auto cycles = ROCPROFILER_PC_SAMPLING_UNIT_CYCLES;
  auto& r = s.statuses;
  unsetenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED");
  std::vector<rocprofiler_pc_sampling_configuration_t> ignored;
  s.query_without_beta =
      rocprofiler_query_pc_sampling_agent_configurations(s.gpu, collect_configs, &ignored);
  r["no beta"] = try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 4096, s.buffer);
  setenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED", "1", 1);
  rocprofiler_query_pc_sampling_agent_configurations(s.gpu, collect_configs, &s.offered);
  r["host trap"] = try_configure(s.sampling_ctx, s.gpu, ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,
                                 ROCPROFILER_PC_SAMPLING_UNIT_TIME, 4096, s.buffer);
  r["not pow2"] = try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 4000, s.buffer);
  r["too small"] = try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 16, s.buffer);
  r["flags"] = try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 4096, s.buffer, 1);
  r["cpu agent"] = try_configure(s.sampling_ctx, s.cpu, stochastic, cycles, 4096, s.buffer);
  r["no agent"] = try_configure(s.sampling_ctx, rocprofiler_agent_id_t{999}, stochastic, cycles,
                                4096, s.buffer);
  r["no buffer"] =
      try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 4096, rocprofiler_buffer_id_t{999});
  r["first"] = try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 4096, s.buffer,
                             ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS);
  r["again"] = try_configure(s.sampling_ctx, s.gpu, stochastic, cycles, 4096, s.buffer);
  r["other context"] = try_configure(s.other_ctx, s.gpu, stochastic, cycles, 4096, s.other_buffer);
  // The other direction of the counters rule: counting after PC sampling is refused too.
  r["counters after"] = rocprofiler_configure_callback_dispatch_counting_service(
      s.other_ctx, [](auto, rocprofiler_counter_config_id_t*, rocprofiler_user_data_t*, void*) {},
      nullptr, [](auto, rocprofiler_counter_record_t*, size_t, rocprofiler_user_data_t, void*) {},
      nullptr);
  rocprofiler_query_pc_sampling_agent_configurations(s.gpu, collect_configs, &s.offered_after);
  return 0;
}

[[maybe_unused]] ::testing::Environment* const g_environment =
    ::testing::AddGlobalTestEnvironment(new pc_sampling_test::core_environment<initialize>());

TEST(pc_sampling_service, the_agent_offers_what_its_backend_offers) {
  ASSERT_NE(st().gpu.handle, 0u);
  ASSERT_EQ(st().offered.size(), 1u);
  const auto& c = st().offered[0];
  EXPECT_EQ(c.method, ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC);
  EXPECT_EQ(c.unit, ROCPROFILER_PC_SAMPLING_UNIT_CYCLES);
  EXPECT_EQ(c.min_interval, 32u);
  EXPECT_EQ(c.max_interval, size_t{1} << 31);
  EXPECT_EQ(c.flags, uint64_t{ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2});
}

TEST(pc_sampling_service, the_beta_opt_in_is_required) {
  EXPECT_EQ(st().query_without_beta, ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
  EXPECT_EQ(st().statuses.at("no beta"), ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
}

TEST(pc_sampling_service, each_rule_has_its_status) {
  const auto& r = st().statuses;
  EXPECT_EQ(r.at("host trap"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.at("not pow2"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.at("too small"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.at("flags"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.at("cpu agent"), ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
  EXPECT_EQ(r.at("no agent"), ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
  EXPECT_EQ(r.at("no buffer"), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(r.at("first"), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(r.at("again"), ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(r.at("other context"), ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
  EXPECT_EQ(r.at("counters after"), ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);
}

TEST(pc_sampling_service, a_configured_agent_offers_only_the_configuration_in_use) {
  ASSERT_EQ(st().offered_after.size(), 1u);
  EXPECT_EQ(st().offered_after[0].min_interval, 4096u);
  EXPECT_EQ(st().offered_after[0].max_interval, 4096u);
}

TEST(pc_sampling_service, configuration_is_locked_after_initialize) {
  EXPECT_EQ(try_configure(st().sampling_ctx, st().gpu, ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC,
                          ROCPROFILER_PC_SAMPLING_UNIT_CYCLES, 4096, st().buffer),
            ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST(pc_sampling_service, samples_reach_the_buffer_of_the_started_context) {
  test_backend_emit_pc_sample(0x100, 10);  // context not started yet: nowhere to go
  ASSERT_EQ(rocprofiler_start_context(st().sampling_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(test_backend_pc_sampling_interval(), 4096u);
  test_backend_emit_pc_sample(0x1e0, 40);
  ASSERT_EQ(rocprofiler_flush_buffer(st().buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(st().mutex);
  ASSERT_EQ(st().samples.size(), 1u);
  EXPECT_EQ(st().standard_records, 0u);  // the flag: aggregated records only
  const auto& s = st().samples[0];
  EXPECT_EQ(s.pc.code_object_offset, 0x1e0u);
  EXPECT_EQ(s.sample_count, 40u);
  EXPECT_EQ(s.not_issued_count, 20u);
  EXPECT_EQ(s.agent_id.handle, st().gpu.handle);
  EXPECT_EQ(s.warp_state, uint32_t{ROCPROFILER_PC_SAMPLING_WARP_STATE_LONG_SCOREBOARD});
}

// The end of a run: rocprofiler_stop_context makes the core stop the backend, and CUPTI gives
// the last range's samples only then (cuptiPCSamplingStop), after the context went inactive.
// They were taken while it ran: they reach its buffer.
TEST(pc_sampling_service, samples_handed_over_when_the_backend_stops_are_kept) {
  ASSERT_EQ(rocprofiler_start_context(st().sampling_ctx), ROCPROFILER_STATUS_SUCCESS);
  auto arm = backend_entry<void (*)(uint64_t)>("test_backend_emit_pc_sample_at_stop");
  ASSERT_NE(arm, nullptr);
  arm(33);
  ASSERT_EQ(rocprofiler_stop_context(st().sampling_ctx), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(test_backend_pc_sampling_interval(), 0u);  // the backend was stopped
  ASSERT_EQ(rocprofiler_flush_buffer(st().buffer), ROCPROFILER_STATUS_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(st().mutex);
    ASSERT_FALSE(st().samples.empty());
    EXPECT_EQ(st().samples.back().pc.code_object_offset, 0x2a0u);
    EXPECT_EQ(st().samples.back().sample_count, 33u);
  }
  // Started again, the context takes samples as before.
  ASSERT_EQ(rocprofiler_start_context(st().sampling_ctx), ROCPROFILER_STATUS_SUCCESS);
  test_backend_emit_pc_sample(0x300, 5);
  ASSERT_EQ(rocprofiler_flush_buffer(st().buffer), ROCPROFILER_STATUS_SUCCESS);
  std::lock_guard<std::mutex> lock(st().mutex);
  EXPECT_EQ(st().samples.back().pc.code_object_offset, 0x300u);
}

TEST(pc_sampling_service, losses_come_from_the_backend) {
  rocprofiler_pc_sampling_loss_t loss{};
  ASSERT_EQ(rocprofiler_query_pc_sampling_loss(st().gpu, &loss), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(loss.total_samples, 100u);
  EXPECT_EQ(loss.dropped_samples, 2u);
  EXPECT_EQ(loss.unattributed_samples, 3u);
  EXPECT_EQ(rocprofiler_query_pc_sampling_loss(st().cpu, &loss),
            ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
}

// The instruction texts a backend found (at the end of a run) reach the tool unchanged.
TEST(pc_sampling_service, instruction_texts_come_from_the_backend) {
  std::map<uint64_t, std::string> texts;
  ASSERT_EQ(
      rocprofiler_query_pc_sampling_instructions(
          [](const rocprofiler_pc_sampling_instruction_t* inst, void* data) {
            EXPECT_EQ(inst->pc.code_object_id, 4u);
            EXPECT_EQ(inst->kernel_id, 7u);
            (*static_cast<std::map<uint64_t, std::string>*>(data))[inst->pc.code_object_offset] =
                inst->text;
          },
          &texts),
      ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(texts, (std::map<uint64_t, std::string>{{0x1c0, "FFMA R4, R7, R4, R6"},
                                                    {0xa0, "@!P0 BRA `(.L_x_0)"}}));
  EXPECT_EQ(rocprofiler_query_pc_sampling_instructions(nullptr, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

// The documented table (docs/user-guide.md): every warp state has a name and a reason; the
// rows the kernels of the GPU checks depend on are pinned.
TEST(pc_sampling_tables, warp_states_map_to_not_issued_reasons) {
  using R = rocprofiler_pc_sampling_instruction_not_issued_reason_t;
  const std::map<rocprofiler_pc_sampling_warp_state_t, std::pair<std::string, R>> pinned = {
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_LONG_SCOREBOARD,
       {"long_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_SHORT_SCOREBOARD,
       {"short_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_WAIT,
       {"wait", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_NOT_SELECTED,
       {"not_selected", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_SELECTED,
       {"selected", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_MATH_PIPE_THROTTLE,
       {"math_pipe_throttle",
        ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_BARRIER,
       {"barrier", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_SLEEPING,
       {"sleeping", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT}},
      {ROCPROFILER_PC_SAMPLING_WARP_STATE_NO_INSTRUCTIONS,
       {"no_instructions",
        ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE}},
  };
  for (const auto& [state, expected] : pinned) {
    EXPECT_EQ(rocprofiler_get_pc_sampling_warp_state_name(state), expected.first);
    EXPECT_EQ(rocprofiler_pc_sampling_map_warp_state(state), expected.second) << expected.first;
  }
  for (int i = 1; i < ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST; ++i) {
    const auto state = static_cast<rocprofiler_pc_sampling_warp_state_t>(i);
    ASSERT_NE(rocprofiler_get_pc_sampling_warp_state_name(state), nullptr) << i;
    EXPECT_LT(rocprofiler_pc_sampling_map_warp_state(state),
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST);
  }
  EXPECT_EQ(rocprofiler_get_pc_sampling_warp_state_name(ROCPROFILER_PC_SAMPLING_WARP_STATE_LAST),
            nullptr);
}

TEST(pc_sampling_tables, amd_enum_names_are_their_identifiers) {
  EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_type_name(
                   ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU),
               "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU");
  EXPECT_STREQ(rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
                   ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT),
               "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT");
  EXPECT_EQ(rocprofiler_get_pc_sampling_instruction_type_name(
                ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST),
            nullptr);
  // Values as rocprofiler-sdk (a tool switching on them must see the same numbers).
  static_assert(ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE == 3, "");
  static_assert(ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU == 16, "");
  static_assert(ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT == 9, "");
  static_assert(sizeof(rocprofiler_pc_sampling_hw_id_v0_t) == 8, "");
  static_assert(sizeof(rocprofiler_pc_sampling_snapshot_v0_t) == 4, "");
}

}  // namespace
