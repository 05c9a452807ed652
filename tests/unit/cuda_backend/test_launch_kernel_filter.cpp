// The kernel filter while counting on CUDA (seen on the H100: `--pmc SQ_WAVES
// --kernel-include-regex ^fill` counted nothing). The tool decides per kernel id from the
// symbol's formatted name (libtool/tool/dispatch_selection.hpp), and the dispatch is decided
// at launch, before any kernel record exists: so the backend reports a kernel's symbol at its
// first counted launch, with the resources the driver gives, and the later records report
// nothing again but keep their registers. The sink here plays the core and the tool with the
// tool's own dispatch_selector on the demangled name.
#include <gtest/gtest.h>

#include <vector>

#include "counting_session.hpp"
#include "dispatch_selection.hpp"
#include "recording_sink.hpp"
#include "rocprof/formats/symbol_names.hpp"
#include "synthetic_cupti.hpp"
#include "synthetic_range_profiler.hpp"

namespace rocprof::cuda {
namespace {

constexpr uint32_t driver_launch = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
constexpr const char* k_fill = "_Z4fillPffm";         // fill(float*, float, unsigned long)
constexpr const char* k_add = "_Z7vec_addPKfS0_Pfi";  // vec_add(float const*, ..., int)
const auto k_fill_function = reinterpret_cast<CUfunction>(0xf1);
const auto k_add_function = reinterpret_cast<CUfunction>(0xad);

// The core's counting service and the tool's selection: symbols name kernels for the
// selector, each dispatch is counted when the selector says so. `events` keeps the order of
// symbol reports and dispatch questions.
class filtering_sink : public test::recording_sink {
 public:
  explicit filtering_sink(const std::string& include) : selector{include, "", {}, 1} {}

  tool::dispatch_selector selector;
  uint64_t set = 0;
  bool counting = true;
  std::vector<kernel_symbol_event> symbol_events;
  std::vector<std::string> symbol_names;
  std::vector<std::string> events;
  std::vector<rocprofiler_kernel_dispatch_info_t> asked;
  std::vector<uint64_t> counted;  // dispatch ids whose values came back

  bool counting_requested() override { return counting; }
  bool counting_active() override { return counting; }
  void kernel_symbol(const kernel_symbol_event& e) override {
    recording_sink::kernel_symbol(e);
    symbol_events.push_back(e);
    symbol_names.emplace_back(e.mangled_name);
    selector.name_kernel(e.kernel_id, formats::demangle_symbol(e.mangled_name));
    events.push_back(std::string("symbol ") + e.mangled_name);
  }
  uint64_t counting_begin(rocprof_counted_dispatch_t& d,
                          const rocprofiler_kernel_dispatch_info_t& info, uint64_t correlation_id,
                          uint64_t) override {
    asked.push_back(info);
    events.push_back("dispatch " + std::to_string(info.kernel_id));
    const bool chosen = selector.select(info.kernel_id, info.agent_id.handle, 1).has_value();
    d = rocprof_counted_dispatch_t{};
    d.config = chosen ? 1 : 0;
    d.counter_set = set;
    d.dispatch_info = info;
    d.correlation_id.internal = correlation_id;
    return chosen ? set : 0;
  }
  void counting_end(const rocprof_counted_dispatch_t& d, const double* values, uint64_t, uint64_t,
                    uint64_t) override {
    if (values != nullptr) counted.push_back(d.dispatch_info.dispatch_id);
  }
};

struct kernel_filter_fixture : testing::Test {
  test::synthetic_cupti api;
  filtering_sink sink{"^fill"};
  test::synthetic_range_profiler target;
  test::synthetic_counting_host host;
  std::unique_ptr<cupti_session> session;
  uint32_t next_cupti_id = 100;

  void SetUp() override {
    sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
    test::create_counter_set(host, {"smsp__warps_launched.sum"}, sink.set);
    target.resources.registers_per_thread = 40;
    target.resources.static_shared_memory = 1024;
    target.resources.local_memory_per_thread = 16;
    session = test::start_counting_session(api, sink, target, host);
  }
  void TearDown() override { session->stop(); }

  // One cuLaunchKernel of `function` named `symbol`; returns its CUPTI id.
  uint32_t launch(CUfunction function, const char* symbol) {
    static uint64_t slot = 0;
    cuLaunchKernel_params p{};
    p.f = function;
    p.gridDimX = 8;
    p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = 128;
    p.blockDimY = p.blockDimZ = 1;
    CUpti_CallbackData cb{};
    cb.functionName = "cuLaunchKernel";
    cb.symbolName = symbol;
    cb.correlationId = next_cupti_id;
    cb.correlationData = &slot;
    cb.context = reinterpret_cast<CUcontext>(0x10);
    cb.contextUid = 3;
    cb.functionParams = &p;
    for (CUpti_ApiCallbackSite site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
      cb.callbackSite = site;
      session->on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch, cb);
    }
    return next_cupti_id++;
  }

  // The kernel records of `launches` (CUPTI id, name), as the activity buffer brings them.
  void deliver_records(const std::vector<std::pair<uint32_t, const char*>>& launches) {
    std::vector<CUpti_ActivityKernel10> records;
    for (const auto& [id, name] : launches) {
      CUpti_ActivityKernel10 k{};
      k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
      k.name = name;
      k.correlationId = id;
      k.gridX = 8, k.gridY = k.gridZ = 1;
      k.blockX = 128, k.blockY = k.blockZ = 1;
      k.registersPerThread = 40;
      k.staticSharedMemory = 1024;
      k.start = 1000 + id;
      k.end = k.start + 5;
      records.push_back(k);
    }
    std::vector<const CUpti_Activity*> pointers;
    for (const auto& k : records)
      pointers.push_back(reinterpret_cast<const CUpti_Activity*>(&k));
    api.buffer_records = std::move(pointers);
    api.next_index = 0;
    uint8_t dummy[8] = {};
    testing::internal::CaptureStderr();
    session->on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
    testing::internal::GetCapturedStderr();
  }
};

TEST_F(kernel_filter_fixture, only_the_included_kernels_dispatches_are_counted) {
  std::vector<std::pair<uint32_t, const char*>> launched;
  std::vector<uint64_t> fill_dispatches;
  for (int i = 0; i < 3; ++i) {
    launched.emplace_back(launch(k_fill_function, k_fill), k_fill);
    fill_dispatches.push_back(sink.asked.back().dispatch_id);
    launched.emplace_back(launch(k_add_function, k_add), k_add);
  }
  ASSERT_EQ(sink.asked.size(), 6u);
  EXPECT_EQ(sink.counted, fill_dispatches);  // exactly fill's, vec_add's run untouched

  // Each symbol came before the first dispatch of its kernel, once, with the driver's resources
  // (asked once per kernel, not per launch).
  ASSERT_EQ(sink.symbol_names, (std::vector<std::string>{k_fill, k_add}));
  EXPECT_EQ(sink.events[0], std::string("symbol ") + k_fill);
  EXPECT_EQ(sink.events[1], "dispatch " + std::to_string(sink.asked[0].kernel_id));
  EXPECT_EQ(sink.events[2], std::string("symbol ") + k_add);
  EXPECT_EQ(target.described, (std::vector<CUfunction>{k_fill_function, k_add_function}));
  for (const kernel_symbol_event& s : sink.symbol_events) {
    EXPECT_EQ(s.registers_per_thread, 40u);
    EXPECT_EQ(s.static_shared_memory, 1024u);
    EXPECT_EQ(s.local_memory_per_thread, 16u);
  }

  // The records keep the launch's kernel ids and registers and report no symbol again.
  deliver_records(launched);
  EXPECT_EQ(sink.symbol_names.size(), 2u);
  ASSERT_EQ(sink.kernels.size(), 6u);
  for (size_t i = 0; i < sink.kernels.size(); ++i) {
    EXPECT_EQ(sink.kernels[i].kernel_id, sink.asked[i].kernel_id);
    EXPECT_EQ(sink.kernels[i].dispatch_id, sink.asked[i].dispatch_id);
    EXPECT_EQ(sink.kernels[i].arch_vgpr_count, 40u);
  }
}

TEST_F(kernel_filter_fixture, without_resources_the_symbol_still_comes_first) {
  target.resources_known = false;
  const uint32_t id = launch(k_fill_function, k_fill);
  ASSERT_EQ(sink.symbol_events.size(), 1u);
  EXPECT_EQ(sink.symbol_events[0].registers_per_thread, 0u);
  EXPECT_EQ(sink.counted.size(), 1u);
  deliver_records({{id, k_fill}});
  EXPECT_EQ(sink.symbol_events.size(), 1u);
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].arch_vgpr_count, 40u);  // the trace keeps the record's registers
}

TEST_F(kernel_filter_fixture, tracing_without_counters_reports_symbols_from_records_only) {
  sink.counting = false;
  const uint32_t id = launch(k_add_function, k_add);
  EXPECT_TRUE(sink.asked.empty());
  EXPECT_TRUE(sink.symbol_events.empty());
  EXPECT_TRUE(target.described.empty());  // no driver call at launch
  deliver_records({{id, k_add}});
  ASSERT_EQ(sink.symbol_events.size(), 1u);
  EXPECT_EQ(sink.symbol_events[0].registers_per_thread, 40u);  // the record's
  EXPECT_EQ(sink.symbol_events[0].static_shared_memory, 1024u);
}

}  // namespace
}  // namespace rocprof::cuda
