// Launch-time capture of the external correlation id (what --kernel-rename turns into a region
// name): the id pushed on the LAUNCHING thread when the launch callback runs is the one the
// kernel, copy or memset record carries when CUPTI delivers it later, on another thread, after
// the range has ended.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "cupti_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"

namespace rocprof::cuda {
namespace {

constexpr uint32_t launch_cbid = 211;
constexpr uint32_t memcpy_cbid = 31;
constexpr uint32_t memset_cbid = 44;
constexpr uint32_t driver_launch_cbid = 307;

template <typename T>
const CUpti_Activity& as_record(const T& r) {
  return *static_cast<const CUpti_Activity*>(static_cast<const void*>(&r));
}

struct fixture {
  test::synthetic_cupti api;
  test::recording_sink sink;
  cupti_session session{api, sink};

  explicit fixture(bool trace_runtime_api) {
    api.names[{CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid}] = "cudaLaunchKernel_v7000";
    api.names[{CUPTI_CB_DOMAIN_RUNTIME_API, memcpy_cbid}] = "cudaMemcpyAsync_v3020";
    api.names[{CUPTI_CB_DOMAIN_RUNTIME_API, memset_cbid}] = "cudaMemsetAsync_v3020";
    api.names[{CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid}] = "cuLaunchKernel";
    sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
    sink.domains[static_cast<size_t>(cuda_domain::memory_copy)] = true;
    sink.domains[static_cast<size_t>(cuda_domain::memory_set)] = true;
    sink.domains[static_cast<size_t>(cuda_domain::runtime_api)] = trace_runtime_api;
    EXPECT_EQ(session.start(), session_state::running);
  }
  ~fixture() { session.stop(); }

  // One API call of the calling thread (ENTER then EXIT), as CUPTI reports it.
  void call(CUpti_CallbackDomain domain, uint32_t cbid, uint32_t cupti_id) {
    uint64_t slot = 0;
    CUpti_CallbackData cb{};
    cb.functionName = "call";
    cb.correlationId = cupti_id;
    cb.correlationData = &slot;
    cb.callbackSite = CUPTI_API_ENTER;
    session.on_api(domain, cbid, cb);
    cb.callbackSite = CUPTI_API_EXIT;
    session.on_api(domain, cbid, cb);
  }
  void launch(uint32_t cupti_id) { call(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, cupti_id); }

  // CUPTI delivers the buffer on the calling thread; the agent query (no driver here) warns.
  void deliver(std::vector<const CUpti_Activity*> records) {
    api.buffer_records = std::move(records);
    api.next_index = 0;
    uint8_t dummy[8] = {};
    testing::internal::CaptureStderr();
    session.on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
    testing::internal::GetCapturedStderr();
  }
};

CUpti_ActivityKernel10 kernel(uint32_t cupti_id) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.name = "_Z1kv";
  k.correlationId = cupti_id;
  return k;
}

class launch_capture : public testing::TestWithParam<bool> {
 protected:
  void TearDown() override { test::recording_sink::thread_external = 0; }
};

TEST_P(launch_capture, kernels_carry_the_id_pushed_at_their_launch_not_at_delivery) {
  fixture f{GetParam()};
  test::recording_sink::thread_external = 0xA1;  // inside range A
  f.launch(10);
  test::recording_sink::thread_external = 0xB2;  // inside range B
  f.launch(11);
  test::recording_sink::thread_external = 0;  // every range ended
  f.launch(12);
  // The delivering thread is inside yet another range: it must not leak into the records.
  test::recording_sink::thread_external = 0xDE;
  const auto k10 = kernel(10), k11 = kernel(11), k12 = kernel(12);
  f.deliver({&as_record(k12), &as_record(k10), &as_record(k11)});
  ASSERT_EQ(f.sink.kernels.size(), 3U);
  EXPECT_EQ(f.sink.kernels[0].external_id, 0U);
  EXPECT_EQ(f.sink.kernels[1].external_id, 0xA1U);
  EXPECT_EQ(f.sink.kernels[2].external_id, 0xB2U);
}

TEST_P(launch_capture, copies_and_memsets_carry_the_id_of_their_launch) {
  fixture f{GetParam()};
  test::recording_sink::thread_external = 0xC3;
  f.call(CUPTI_CB_DOMAIN_RUNTIME_API, memcpy_cbid, 20);
  test::recording_sink::thread_external = 0xD4;
  f.call(CUPTI_CB_DOMAIN_RUNTIME_API, memset_cbid, 21);
  test::recording_sink::thread_external = 0;
  CUpti_ActivityMemcpy6 c{};
  c.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  c.correlationId = 20;
  CUpti_ActivityMemset4 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  m.correlationId = 21;
  f.deliver({&as_record(c), &as_record(m)});
  ASSERT_EQ(f.sink.copies.size(), 1U);
  ASSERT_EQ(f.sink.sets.size(), 1U);
  EXPECT_EQ(f.sink.copies[0].external_id, 0xC3U);
  EXPECT_EQ(f.sink.sets[0].external_id, 0xD4U);
}

TEST_P(launch_capture, a_runtime_launch_and_its_nested_driver_launch_share_the_outer_id) {
  fixture f{GetParam()};
  test::recording_sink::thread_external = 0xE5;
  uint64_t slot_rt = 0, slot_drv = 0;
  CUpti_CallbackData rt{}, drv{};
  rt.functionName = "cudaLaunchKernel";
  rt.correlationId = 30;
  rt.correlationData = &slot_rt;
  drv.functionName = "cuLaunchKernel";
  drv.correlationId = 31;
  drv.correlationData = &slot_drv;
  rt.callbackSite = drv.callbackSite = CUPTI_API_ENTER;
  f.session.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, rt);
  f.session.on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid, drv);
  rt.callbackSite = drv.callbackSite = CUPTI_API_EXIT;
  f.session.on_api(CUPTI_CB_DOMAIN_DRIVER_API, driver_launch_cbid, drv);
  f.session.on_api(CUPTI_CB_DOMAIN_RUNTIME_API, launch_cbid, rt);
  test::recording_sink::thread_external = 0;
  // CUPTI may put either id on the kernel record.
  const auto by_runtime = kernel(30), by_driver = kernel(31);
  f.deliver({&as_record(by_runtime), &as_record(by_driver)});
  ASSERT_EQ(f.sink.kernels.size(), 2U);
  EXPECT_EQ(f.sink.kernels[0].external_id, 0xE5U);
  EXPECT_EQ(f.sink.kernels[1].external_id, 0xE5U);
  EXPECT_EQ(f.sink.kernels[0].correlation_id, f.sink.kernels[1].correlation_id);
}

TEST_P(launch_capture, each_launching_thread_contributes_its_own_id) {
  fixture f{GetParam()};
  test::recording_sink::thread_external = 0xF6;
  f.launch(40);
  std::thread worker{[&] {
    test::recording_sink::thread_external = 0x77;  // this thread's own range
    f.launch(41);
  }};
  worker.join();
  test::recording_sink::thread_external = 0;
  const auto k40 = kernel(40), k41 = kernel(41);
  f.deliver({&as_record(k40), &as_record(k41)});
  ASSERT_EQ(f.sink.kernels.size(), 2U);
  EXPECT_EQ(f.sink.kernels[0].external_id, 0xF6U);
  EXPECT_EQ(f.sink.kernels[1].external_id, 0x77U);
  EXPECT_NE(f.sink.kernels[0].tid, f.sink.kernels[1].tid);
}

TEST_P(launch_capture, work_no_launch_callback_saw_has_no_external_id) {
  fixture f{GetParam()};
  test::recording_sink::thread_external = 0x99;  // the delivering thread's range
  const auto orphan = kernel(50);
  f.deliver({&as_record(orphan)});
  ASSERT_EQ(f.sink.kernels.size(), 1U);
  EXPECT_EQ(f.sink.kernels[0].external_id, 0U);
  EXPECT_NE(f.sink.kernels[0].correlation_id, 0U);
}

// Both ways a launch callback takes the id: as a traced API call (api_enter, the core's scope)
// and as an untraced launch kept only for its GPU work.
INSTANTIATE_TEST_SUITE_P(api_traced_or_not, launch_capture, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& p) {
                           return p.param ? std::string{"runtime_api_traced"}
                                          : std::string{"launch_only"};
                         });

}  // namespace
}  // namespace rocprof::cuda
