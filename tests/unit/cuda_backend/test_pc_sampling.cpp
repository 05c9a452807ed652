// PC sampling in the CUDA backend on synthetic CUPTI data: stall-reason names, the aggregation
// of CUpti_PCSamplingData into pc_sampling.h records, and the sampler's CUPTI call sequence
// (enable at context creation, configure, start, drain, stop, disable) with losses.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pc_sampler.hpp"
#include "pc_sampling_decode.hpp"
#include "pc_sampling_reasons.hpp"

namespace rocprof::cuda {
namespace {

// A few of the H100's 40 reasons, with the indices CUPTI gave them there.
const std::vector<std::pair<uint32_t, std::string>> k_h100_reasons = {
    {0, "smsp__pcsamp_sample_count"},
    {1, "smsp__pcsamp_samples_data_dropped"},
    {14, "smsp__pcsamp_warps_issue_stalled_long_scoreboard"},
    {15, "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued"},
    {26, "smsp__pcsamp_warps_issue_stalled_not_selected"},
    {27, "smsp__pcsamp_warps_issue_stalled_not_selected_not_issued"},
    {28, "smsp__pcsamp_warps_issue_stalled_selected"},
    {36, "smsp__pcsamp_warps_issue_stalled_wait"},
    {37, "smsp__pcsamp_warps_issue_stalled_wait_not_issued"},
};

stall_reason_table h100_table() {
  stall_reason_table t;
  for (const auto& [i, name] : k_h100_reasons)
    t.add(i, name);
  return t;
}

TEST(pc_sampling_reasons, names_parse_to_warp_states) {
  const stall_reason ls = parse_stall_reason("smsp__pcsamp_warps_issue_stalled_long_scoreboard");
  EXPECT_EQ(ls.state, ROCPROFILER_PC_SAMPLING_WARP_STATE_LONG_SCOREBOARD);
  EXPECT_FALSE(ls.not_issued);
  const stall_reason ni =
      parse_stall_reason("smsp__pcsamp_warps_issue_stalled_math_pipe_throttle_not_issued");
  EXPECT_EQ(ni.state, ROCPROFILER_PC_SAMPLING_WARP_STATE_MATH_PIPE_THROTTLE);
  EXPECT_TRUE(ni.not_issued);
  EXPECT_EQ(parse_stall_reason("smsp__pcsamp_warps_issue_stalled_warpgroup_arrive").state,
            ROCPROFILER_PC_SAMPLING_WARP_STATE_WARPGROUP_ARRIVE);
  EXPECT_EQ(parse_stall_reason("smsp__pcsamp_sample_count").state,
            ROCPROFILER_PC_SAMPLING_WARP_STATE_NONE);
  EXPECT_EQ(parse_stall_reason("smsp__pcsamp_warps_issue_stalled_future_state").state,
            ROCPROFILER_PC_SAMPLING_WARP_STATE_NONE);
  EXPECT_EQ(h100_table().at(999).state, ROCPROFILER_PC_SAMPLING_WARP_STATE_NONE);
}

// Synthetic CUPTI data: PCs with (reason index, samples) pairs.
struct synthetic_pc {
  uint64_t crc, offset;
  std::string function;
  uint32_t correlation;
  std::vector<CUpti_PCSamplingStallReason> reasons;
};

struct synthetic_data {
  std::vector<CUpti_PCSamplingPCData> pcs;
  CUpti_PCSamplingData data{};
  explicit synthetic_data(std::vector<synthetic_pc>& in) {
    for (auto& p : in) {
      CUpti_PCSamplingPCData d{};
      d.size = sizeof(d);
      d.cubinCrc = p.crc;
      d.pcOffset = p.offset;
      d.functionName = p.function.data();
      d.stallReasonCount = p.reasons.size();
      d.stallReason = p.reasons.data();
      d.correlationId = p.correlation;
      pcs.push_back(d);
    }
    data.size = sizeof(data);
    data.totalNumPcs = pcs.size();
    data.collectNumPcs = pcs.size();
    data.pPcData = pcs.data();
    data.totalSamples = 170;
    data.droppedSamples = 3;
    data.nonUsrKernelsTotalSamples = 5;
  }
};

pc_sample_resolvers test_resolvers() {
  pc_sample_resolvers r;
  r.code_object_of = [](uint64_t crc) -> uint64_t { return crc == 0xabc ? 2 : 0; };
  r.kernel_of = [](const char* f) -> uint64_t { return std::strcmp(f, "_Z5chasePj") == 0 ? 7 : 8; };
  r.launch_of = [](uint32_t c) -> uint64_t { return c == 11 ? 1001 : 0; };
  return r;
}

TEST(pc_sampling_decode, one_record_per_pc_and_warp_state_with_its_not_issued_subset) {
  std::vector<synthetic_pc> in = {
      {0xabc, 0x1e0, "_Z5chasePj", 11, {{14, 100}, {15, 98}, {0, 100}, {28, 2}}},
      {0xabc, 0x200, "_Z3fmaPf", 0, {{36, 40}, {37, 30}, {26, 25}, {27, 5}}},
  };
  synthetic_data d(in);
  std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t> out;
  const pc_sample_totals t =
      decode_pc_samples(d.data, h100_table(), test_resolvers(), 3, true, out);
  EXPECT_EQ(t.total, 170u);
  EXPECT_EQ(t.dropped, 3u);
  EXPECT_EQ(t.non_user, 5u);
  EXPECT_EQ(t.attributed, 100u + 2u + 40u + 25u);  // sample_count is not a warp state
  ASSERT_EQ(out.size(), 4u);
  std::map<std::pair<uint64_t, uint32_t>, rocprofiler_pc_sampling_record_aggregated_v0_t> by;
  for (const auto& r : out)
    by[{r.pc.code_object_offset, r.warp_state}] = r;
  const auto& chase = by.at({0x1e0, ROCPROFILER_PC_SAMPLING_WARP_STATE_LONG_SCOREBOARD});
  EXPECT_EQ(chase.sample_count, 100u);
  EXPECT_EQ(chase.not_issued_count, 98u);
  EXPECT_EQ(chase.reason_not_issued,
            uint32_t{ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT});
  EXPECT_EQ(chase.pc.code_object_id, 2u);
  EXPECT_EQ(chase.kernel_id, 7u);
  EXPECT_EQ(chase.agent_id.handle, 3u);
  EXPECT_EQ(chase.correlation_id.internal, 1001u);
  EXPECT_EQ(chase.attribution, uint32_t{ROCPROFILER_PC_SAMPLING_ATTRIBUTION_DISPATCH});
  EXPECT_EQ(chase.size, sizeof(chase));
  const auto& selected = by.at({0x1e0, ROCPROFILER_PC_SAMPLING_WARP_STATE_SELECTED});
  EXPECT_EQ(selected.not_issued_count, 0u);
  EXPECT_EQ(selected.reason_not_issued,
            uint32_t{ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE});
  const auto& fma = by.at({0x200, ROCPROFILER_PC_SAMPLING_WARP_STATE_WAIT});
  EXPECT_EQ(fma.sample_count, 40u);
  EXPECT_EQ(fma.not_issued_count, 30u);
  EXPECT_EQ(fma.kernel_id, 8u);
  // No correlation id from CUPTI: the kernel is known, the launch is not, and nothing is made up.
  EXPECT_EQ(fma.correlation_id.internal, 0u);
  EXPECT_EQ(fma.dispatch_id, 0u);
  EXPECT_EQ(fma.attribution, uint32_t{ROCPROFILER_PC_SAMPLING_ATTRIBUTION_KERNEL});
}

TEST(pc_sampling_decode, continuous_mode_ignores_correlation_ids_and_unknown_cubins_stay_zero) {
  std::vector<synthetic_pc> in = {{0xdead, 0x10, "_Z5chasePj", 11, {{14, 4}}}};
  synthetic_data d(in);
  std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t> out;
  decode_pc_samples(d.data, h100_table(), test_resolvers(), 1, false, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].pc.code_object_id, 0u);
  EXPECT_EQ(out[0].correlation_id.internal, 0u);
  EXPECT_EQ(out[0].attribution, uint32_t{ROCPROFILER_PC_SAMPLING_ATTRIBUTION_KERNEL});
}

// CUPTI's PC sampling calls, scripted: one GetData returns `pending`, later ones nothing;
// Stop fills the configured buffer with `at_stop` (the last range); `overflow` makes GetData
// answer as with a full hardware buffer. Calls may come from the sampler's drain thread.
class synthetic_pc_api final : public pc_sampling_api {
 public:
  std::vector<std::string> calls;
  std::vector<synthetic_pc> pending, at_stop, at_disable;
  bool overflow = false;
  bool refuse_sizes = false;  // SetConfiguration fails while buffer sizes are asked for
  uint32_t period = 0, worker_sleep_ms = 0;
  size_t hardware_buffer = 0, scratch_buffer = 0;
  CUpti_PCSamplingCollectionMode mode = CUPTI_PC_SAMPLING_COLLECTION_MODE_INVALID;
  CUpti_PCSamplingData* stop_buffer = nullptr;

  std::vector<std::string> calls_now() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls;
  }
  CUptiResult enable(CUpti_PCSamplingEnableParams*) override { return note("enable"); }
  CUptiResult disable(CUpti_PCSamplingDisableParams*) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_buffer != nullptr && !at_disable.empty()) fill(*stop_buffer, at_disable);
      at_disable.clear();
    }
    return note("disable");
  }
  CUptiResult start(CUpti_PCSamplingStartParams*) override { return note("start"); }
  CUptiResult stop(CUpti_PCSamplingStopParams*) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_buffer != nullptr && !at_stop.empty()) fill(*stop_buffer, at_stop);
    at_stop.clear();
    calls.emplace_back("stop");
    return CUPTI_SUCCESS;
  }
  CUptiResult get_data(CUpti_PCSamplingGetDataParams* p) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& d = *static_cast<CUpti_PCSamplingData*>(p->pcSamplingData);
    d.totalNumPcs = 0;
    if (overflow) {
      d.hardwareBufferFull = 1;
      calls.emplace_back("get_data overflow");
      return CUPTI_ERROR_OUT_OF_MEMORY;
    }
    if (pending.empty()) return CUPTI_SUCCESS;
    fill(d, pending);
    pending.clear();
    calls.emplace_back("get_data");
    return CUPTI_SUCCESS;
  }
  static void fill(CUpti_PCSamplingData& d, const std::vector<synthetic_pc>& pending) {
    d.totalNumPcs = 0;
    for (size_t i = 0; i < pending.size() && i < d.collectNumPcs; ++i) {
      CUpti_PCSamplingPCData& pc = d.pPcData[i];
      pc.cubinCrc = pending[i].crc;
      pc.pcOffset = pending[i].offset;
      pc.correlationId = pending[i].correlation;
      pc.functionName = static_cast<char*>(std::malloc(pending[i].function.size() + 1));
      std::memcpy(pc.functionName, pending[i].function.c_str(), pending[i].function.size() + 1);
      pc.stallReasonCount = pending[i].reasons.size();
      for (size_t r = 0; r < pending[i].reasons.size(); ++r)
        pc.stallReason[r] = pending[i].reasons[r];
      ++d.totalNumPcs;
    }
    d.totalSamples = 10;
    d.droppedSamples = 1;
    d.nonUsrKernelsTotalSamples = 2;
  }
  CUptiResult set_configuration(CUpti_PCSamplingConfigurationInfoParams* p) override {
    for (size_t i = 0; refuse_sizes && i < p->numAttributes; ++i) {
      auto& a = p->pPCSamplingConfigurationInfo[i];
      if (a.attributeType != CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE)
        continue;
      a.attributeStatus = CUPTI_ERROR_INVALID_OPERATION;
      return note("configure refused");  // nothing applied
    }
    for (size_t i = 0; i < p->numAttributes; ++i) {
      const auto& a = p->pPCSamplingConfigurationInfo[i];
      const auto& v = a.attributeData;
      switch (a.attributeType) {
        case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD:
          period = v.samplingPeriodData.samplingPeriod;
          break;
        case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE:
          mode = v.collectionModeData.collectionMode;
          break;
        case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER:
          stop_buffer =
              static_cast<CUpti_PCSamplingData*>(v.samplingDataBufferData.samplingDataBuffer);
          break;
        case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN:
          worker_sleep_ms = v.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan;
          break;
        case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE:
          hardware_buffer = v.hardwareBufferSizeData.hardwareBufferSize;
          break;
        case CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE:
          scratch_buffer = v.scratchBufferSizeData.scratchBufferSize;
          break;
        default:
          break;
      }
    }
    note("configure");
    return CUPTI_SUCCESS;
  }
  CUptiResult num_stall_reasons(CUpti_PCSamplingGetNumStallReasonsParams* p) override {
    *p->numStallReasons = k_h100_reasons.size();
    return CUPTI_SUCCESS;
  }
  CUptiResult stall_reasons(CUpti_PCSamplingGetStallReasonsParams* p) override {
    for (size_t i = 0; i < p->numStallReasons; ++i) {
      p->stallReasonIndex[i] = k_h100_reasons[i].first;
      std::strncpy(p->stallReasons[i], k_h100_reasons[i].second.c_str(),
                   CUPTI_STALL_REASON_STRING_SIZE - 1);
    }
    return CUPTI_SUCCESS;
  }
  CUptiResult sass_to_source(CUpti_GetSassToSourceCorrelationParams* p) override {
    p->fileName = strdup("chase.cu");
    p->dirName = strdup("/src");
    p->lineNumber = 42;
    return CUPTI_SUCCESS;
  }
  const char* result_string(CUptiResult) override { return "synthetic"; }

 private:
  CUptiResult note(const char* what) {
    std::lock_guard<std::mutex> lock(mutex_);
    calls.emplace_back(what);
    return std::string_view(what) == "configure refused" ? CUPTI_ERROR_INVALID_OPERATION
                                                         : CUPTI_SUCCESS;
  }
  std::mutex mutex_;
};

// Records what reaches it. Like the core at exit(), it takes nothing from `exited_thread` (the
// main thread once its thread-local state was destroyed): those records are counted as lost.
class collecting_sink final : public pc_sample_sink {
 public:
  std::vector<rocprofiler_pc_sampling_record_aggregated_v0_t> records;
  std::thread::id exited_thread{};
  size_t lost = 0;
  std::mutex mutex;
  void emit(const rocprofiler_pc_sampling_record_aggregated_v0_t& r) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (std::this_thread::get_id() == exited_thread)
      ++lost;
    else
      records.push_back(r);
  }
  uint64_t kernel_of(const char*) override { return 5; }
  uint64_t launch_of(uint32_t) override { return 0; }
  uint64_t agent_of(CUcontext) override { return 9; }
};

TEST(pc_sampler, enables_at_context_creation_drains_and_stops) {
  synthetic_pc_api api;
  collecting_sink sink;
  pc_sampler_settings s;
  s.interval = 4096;
  s.drain_ms = 1000;  // the test drains by hand
  pc_sampler sampler(api, sink, s);
  auto* ctx = reinterpret_cast<CUcontext>(uintptr_t{0x1000});
  sampler.on_context_created(ctx);
  EXPECT_EQ(api.period, 12u);  // CUPTI takes the exponent
  EXPECT_EQ(api.mode, CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS);
  const unsigned char cubin[] = {1, 2, 3, 4};
  sampler.on_module_loaded(cubin, sizeof(cubin), 0xabc, 4);
  api.pending = {{0xabc, 0x1e0, "_Z5chasePj", 0, {{14, 6}, {15, 6}}}};
  sampler.drain();
  ASSERT_EQ(sink.records.size(), 1u);
  EXPECT_EQ(sink.records[0].pc.code_object_id, 4u);
  EXPECT_EQ(sink.records[0].kernel_id, 5u);
  EXPECT_EQ(sink.records[0].agent_id.handle, 9u);
  EXPECT_EQ(sink.records[0].sample_count, 6u);
  // The source line of the PC, from CUPTI's SASS-to-source correlation of the kept cubin.
  ASSERT_NE(sink.records[0].source_file, nullptr);
  EXPECT_STREQ(sink.records[0].source_file, "/src/chase.cu");
  EXPECT_EQ(sink.records[0].source_line, 42u);
  std::string file;
  uint32_t line = 0;
  EXPECT_TRUE(sampler.source_of(4, "_Z5chasePj", 0x1e0, file, line));
  EXPECT_EQ(file, "/src/chase.cu");
  EXPECT_EQ(line, 42u);
  EXPECT_FALSE(sampler.source_of(99, "_Z5chasePj", 0x1e0, file, line));
  sampler.finish();
  const std::vector<std::string> expected_prefix = {"enable", "configure", "start", "get_data"};
  ASSERT_GE(api.calls.size(), expected_prefix.size());
  EXPECT_EQ(std::vector<std::string>(api.calls.begin(), api.calls.begin() + 4), expected_prefix);
  EXPECT_EQ(api.calls[api.calls.size() - 2], "stop");
  EXPECT_EQ(api.calls.back(), "disable");
  const rocprofiler_pc_sampling_loss_t loss = sampler.losses(9);
  EXPECT_EQ(loss.total_samples, 10u);
  EXPECT_EQ(loss.dropped_samples, 1u);
  EXPECT_EQ(loss.unattributed_samples, 2u);
}

// At the end, the SASS text of each sampled PC: its cubin disassembled once (a stand-in that
// prints captured nvdisasm output), looked up by function and function-relative offset.
TEST(pc_sampler, sampled_instructions_come_from_the_disassembled_cubin) {
  synthetic_pc_api api;
  collecting_sink sink;
  pc_sampler_settings s;
  s.drain_ms = 1000;
  pc_sampler sampler(api, sink, s);
  sampler.on_context_created(reinterpret_cast<CUcontext>(uintptr_t{0x1000}));
  const unsigned char cubin[] = {1, 2, 3, 4};
  sampler.on_module_loaded(cubin, sizeof(cubin), 0xabc, 4);
  api.pending = {{0xabc, 0x1c0, "_Z8fma_loopPfj", 0, {{28, 3}}},
                 {0xabc, 0x180, "_Z13pointer_chasePKjjPj", 0, {{14, 6}}},
                 {0xabc, 0xfff0, "_Z8fma_loopPfj", 0, {{28, 1}}}};  // no such offset
  sampler.drain();
  sampler.finish();
  char script[] = "/tmp/rocprof-nvdisasm-XXXXXX";
  const int fd = ::mkstemp(script);
  ASSERT_GE(fd, 0);
  const std::string body = std::string("#!/bin/sh\ncat ") + ROCPROF_TEST_DATA_DIR +
                           "/nvdisasm/pc_sampling_app.nvdisasm_c.txt\n";
  ASSERT_EQ(::write(fd, body.data(), body.size()), static_cast<ssize_t>(body.size()));
  ::fchmod(fd, 0755);
  ::close(fd);
  sampler.set_disassembler(script);
  std::map<uint64_t, std::string> texts;
  int runs = 0;
  for (; runs < 2; ++runs)  // the second query reuses the first disassembly
    sampler.sampled_instructions([&](uint64_t co, uint64_t kernel, uint64_t offset, const char* t) {
      EXPECT_EQ(co, 4u);
      EXPECT_EQ(kernel, 5u);
      texts[offset] = t;
    });
  ::unlink(script);
  EXPECT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts[0x1c0], "FFMA R4, R7, R4, R6");
  EXPECT_EQ(texts[0x180], "LDG.E R7, desc[UR4][R6.64]");
  // Without a disassembler nothing is reported, and nothing fails.
  pc_sampler none(api, sink, s);
  none.set_disassembler("");
  none.sampled_instructions([](uint64_t, uint64_t, uint64_t, const char*) { FAIL(); });
}

// The order at the end of a run: the last range's samples come out of cuptiPCSamplingStop,
// in the context-destroy callback that the CUDA runtime's exit handler triggers on the main
// thread (whose records the core no longer takes) or in finish(). Either way they are handed
// over by the drain thread, and finish() returns only once they are in the sink.
TEST(pc_sampler, the_last_range_reaches_the_sink_even_from_an_exiting_thread) {
  synthetic_pc_api api;
  collecting_sink sink;
  sink.exited_thread = std::this_thread::get_id();
  pc_sampler_settings s;
  s.drain_ms = 1000;
  pc_sampler sampler(api, sink, s);
  auto* ctx = reinterpret_cast<CUcontext>(uintptr_t{0x1000});
  sampler.on_context_created(ctx);
  sampler.on_module_loaded(nullptr, 0, 0xabc, 4);
  api.at_stop = {{0xabc, 0x40, "_Z3fmaPf", 0, {{36, 7}}}};
  sampler.on_context_destroying(ctx);  // at exit, on the "main" thread
  sampler.finish();
  std::lock_guard<std::mutex> lock(sink.mutex);
  EXPECT_EQ(sink.lost, 0u);
  ASSERT_EQ(sink.records.size(), 1u);
  EXPECT_EQ(sink.records[0].pc.code_object_offset, 0x40u);
  EXPECT_EQ(sink.records[0].sample_count, 7u);
  EXPECT_EQ(sampler.losses(9).total_samples, 10u);
}

// Without a context-destroy callback (the core stops the backend first): finish() ends the
// range itself and delivers its samples before it returns.
TEST(pc_sampler, finish_delivers_the_samples_released_at_stop) {
  synthetic_pc_api api;
  collecting_sink sink;
  pc_sampler_settings s;
  s.drain_ms = 1000;
  pc_sampler sampler(api, sink, s);
  sampler.on_context_created(reinterpret_cast<CUcontext>(uintptr_t{0x1000}));
  api.pending = {{0xabc, 0x10, "_Z5chasePj", 0, {{14, 3}}}};
  api.at_stop = {{0xabc, 0x40, "_Z3fmaPf", 0, {{36, 7}}}};
  sampler.finish();
  std::lock_guard<std::mutex> lock(sink.mutex);
  ASSERT_EQ(sink.records.size(), 2u);
  const std::vector<std::string> tail = {"stop", "get_data", "disable"};
  const auto calls = api.calls_now();
  ASSERT_GE(calls.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(calls.end() - 3, calls.end()), tail);
}

// A full hardware buffer (GetData: OUT_OF_MEMORY) loses an unknown number of samples: counted
// as an event, not as dropped samples; with the opt-in restart, the range is ended and begun.
TEST(pc_sampler, a_full_hardware_buffer_is_counted_and_may_restart_the_range) {
  for (const bool restart : {false, true}) {
    synthetic_pc_api api;
    collecting_sink sink;
    pc_sampler_settings s;
    s.drain_ms = 1000;
    s.restart_after_overflow = restart;
    pc_sampler sampler(api, sink, s);
    sampler.on_context_created(reinterpret_cast<CUcontext>(uintptr_t{0x1000}));
    api.overflow = true;
    sampler.drain();
    const rocprofiler_pc_sampling_loss_t loss = sampler.losses(9);
    EXPECT_GE(loss.hardware_buffer_full_events, 1u);
    EXPECT_EQ(loss.dropped_samples, 0u);
    const auto calls = api.calls_now();
    const bool restarted = calls.size() >= 2 && calls.back() == "start" &&
                           std::find(calls.begin(), calls.end(), "stop") != calls.end();
    EXPECT_EQ(restarted, restart);
    api.overflow = false;
    sampler.finish();
  }
}

// The samples CUPTI's decode threads had not handed over at Stop come out of Disable, into
// the configured buffer: they reach the sink too (the end of the last kernel's samples).
TEST(pc_sampler, samples_released_at_disable_reach_the_sink) {
  synthetic_pc_api api;
  collecting_sink sink;
  pc_sampler_settings s;
  s.drain_ms = 1000;
  pc_sampler sampler(api, sink, s);
  sampler.set_gpu_lookup([] { return pc_sampling_gpu{}; });
  sampler.on_context_created(reinterpret_cast<CUcontext>(uintptr_t{0x1000}));
  api.at_stop = {{0xabc, 0x40, "_Z3fmaPf", 0, {{36, 7}}}};
  api.at_disable = {{0xabc, 0x80, "_Z3fmaPf", 0, {{36, 5}}}};
  sampler.finish();
  std::lock_guard<std::mutex> lock(sink.mutex);
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[1].pc.code_object_offset, 0x80u);
  EXPECT_EQ(sink.records[1].sample_count, 5u);
  EXPECT_EQ(sampler.losses(9).total_samples, 20u);  // 10 per fill, none counted twice
}

// One sample per SM per interval: the hardware buffer holds two seconds of them (32 bytes
// each), between CUPTI's 512 MiB and 4 GiB / a sixteenth of the device memory.
TEST(pc_sampler, buffers_are_sized_for_the_interval_and_the_gpu) {
  const pc_sampling_gpu h100;  // 132 SMs at 1.98 GHz, 80 GiB
  EXPECT_NEAR(pc_samples_per_second(h100, 4096), 63.8e6, 0.1e6);
  EXPECT_EQ(pc_sampler_default_settings(32).hardware_buffer_bytes, size_t{4096} << 20);
  EXPECT_EQ(pc_sampler_default_settings(4096).hardware_buffer_bytes, size_t{4096} << 20);
  EXPECT_EQ(pc_sampler_default_settings(8192).hardware_buffer_bytes, size_t{2048} << 20);
  EXPECT_EQ(pc_sampler_default_settings(16384).hardware_buffer_bytes, size_t{1024} << 20);
  EXPECT_EQ(pc_sampler_default_settings(uint64_t{1} << 20).hardware_buffer_bytes,
            size_t{512} << 20);
  EXPECT_EQ(pc_sampler_default_settings(4096).drain_ms, 2u);
  EXPECT_EQ(pc_sampler_default_settings(uint64_t{1} << 20).drain_ms, 5u);
  pc_sampling_gpu small;  // 16 SMs at 1.5 GHz with 8 GiB: 512 MiB at most (1/16)
  small.sm_count = 16;
  small.clock_khz = 1500000;
  small.memory_bytes = uint64_t{8} << 30;
  EXPECT_EQ(pc_sampler_default_settings(32, small).hardware_buffer_bytes, size_t{512} << 20);
  // The sampler sizes for the GPU its lookup names, once, and passes that to CUPTI.
  synthetic_pc_api api;
  collecting_sink sink;
  pc_sampler_settings base = pc_sampler_default_settings(4096);
  base.drain_ms = 1000;
  pc_sampler sampler(api, sink, base);
  sampler.set_gpu_lookup([small] { return small; });
  sampler.on_context_created(reinterpret_cast<CUcontext>(uintptr_t{0x1000}));
  EXPECT_EQ(api.hardware_buffer, size_t{512} << 20);
  sampler.finish();
  EXPECT_NE(describe_sizing(base, h100).find("hardware buffer 4096 MiB"), std::string::npos);
}

TEST(pc_sampler, buffer_sizes_from_the_environment_are_passed_to_cupti) {
  setenv("ROCPROF_CUDA_PC_SAMPLING_HW_BUFFER_MB", "2048", 1);
  setenv("ROCPROF_CUDA_PC_SAMPLING_WORKER_SLEEP_MS", "3", 1);
  setenv("ROCPROF_CUDA_PC_SAMPLING_SCRATCH_KB", "bad", 1);
  const pc_sampler_settings s = pc_sampler_settings_from_env(4096);
  unsetenv("ROCPROF_CUDA_PC_SAMPLING_HW_BUFFER_MB");
  unsetenv("ROCPROF_CUDA_PC_SAMPLING_WORKER_SLEEP_MS");
  unsetenv("ROCPROF_CUDA_PC_SAMPLING_SCRATCH_KB");
  EXPECT_EQ(s.hardware_buffer_bytes, size_t{2048} << 20);
  EXPECT_EQ(s.worker_sleep_ms, 3u);
  EXPECT_EQ(s.scratch_buffer_bytes, pc_sampler_settings{}.scratch_buffer_bytes);

  for (const bool refuse : {false, true}) {
    synthetic_pc_api api;
    api.refuse_sizes = refuse;
    collecting_sink sink;
    pc_sampler sampler(api, sink, s);
    sampler.on_context_created(reinterpret_cast<CUcontext>(uintptr_t{0x1000}));
    EXPECT_EQ(api.worker_sleep_ms, refuse ? 0u : 3u);
    EXPECT_EQ(api.hardware_buffer, refuse ? 0u : size_t{2048} << 20);
    EXPECT_EQ(api.scratch_buffer, refuse ? 0u : s.scratch_buffer_bytes);
    EXPECT_TRUE(sampler.active());  // CUPTI's defaults when the sizes are refused
    sampler.finish();
  }
}

TEST(pc_sampler, serialized_mode_comes_from_the_environment) {
  setenv("ROCPROF_CUDA_PC_SAMPLING_MODE", "serialized", 1);
  EXPECT_TRUE(pc_sampler_settings_from_env(4096).serialized);
  unsetenv("ROCPROF_CUDA_PC_SAMPLING_MODE");
  EXPECT_FALSE(pc_sampler_settings_from_env(4096).serialized);
}

}  // namespace
}  // namespace rocprof::cuda
