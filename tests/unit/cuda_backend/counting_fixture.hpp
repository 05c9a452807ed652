// What the counted-launch tests through the session's driver callbacks share: a sink that plays
// the core's counting service (every dispatch is counted with `set`, 0: none; what the backend
// asked and delivered is kept) and a fixture that drives a started cupti_session with synthetic
// CUPTI, a synthetic range profiler and host, in one CUDA context.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "counting_session.hpp"
#include "recording_sink.hpp"
#include "synthetic_cupti.hpp"
#include "synthetic_range_profiler.hpp"

namespace rocprof::cuda::test {

const auto k_context = reinterpret_cast<CUcontext>(0x10);

class counting_sink : public recording_sink {
 public:
  uint64_t set = 0;
  struct delivered {
    uint64_t dispatch_id = 0;
    uint64_t correlation_id = 0;
    std::vector<double> values;
    bool lost = false;
    uint64_t start_ns = 0, end_ns = 0;
  };
  std::vector<rocprofiler_kernel_dispatch_info_t> asked;
  std::vector<uint64_t> asked_correlation;
  std::vector<delivered> ends;

  bool counting_requested() override { return true; }
  bool counting_active() override { return true; }
  uint64_t counting_begin(rocprof_counted_dispatch_t& d,
                          const rocprofiler_kernel_dispatch_info_t& info, uint64_t correlation_id,
                          uint64_t) override {
    asked.push_back(info);
    asked_correlation.push_back(correlation_id);
    d = rocprof_counted_dispatch_t{};
    d.config = set != 0 ? 1 : 0;
    d.counter_set = set;
    d.dispatch_info = info;
    d.correlation_id.internal = correlation_id;
    return set;
  }
  void counting_end(const rocprof_counted_dispatch_t& d, const double* values, uint64_t n,
                    uint64_t start_ns, uint64_t end_ns) override {
    delivered e;
    e.start_ns = start_ns;
    e.end_ns = end_ns;
    e.dispatch_id = d.dispatch_info.dispatch_id;
    e.correlation_id = d.correlation_id.internal;
    if (values != nullptr) e.values.assign(values, values + n);
    e.lost = values == nullptr;
    ends.push_back(e);
  }
};

inline cuLaunchKernel_params launch_params(uint32_t grid, uint32_t block) {
  cuLaunchKernel_params p{};
  p.gridDimX = grid;
  p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = block;
  p.blockDimY = p.blockDimZ = 1;
  p.sharedMemBytes = 128;
  return p;
}

struct counting_fixture_base : testing::Test {
  synthetic_cupti api;
  counting_sink sink;
  synthetic_range_profiler target;
  synthetic_counting_host host;
  std::unique_ptr<cupti_session> session;

  // A counter set of two metrics, and the session in ROCPROF_CUDA_COUNTER_MODE `mode`.
  void start(const char* mode) {
    sink.domains[static_cast<size_t>(cuda_domain::kernel_dispatch)] = true;
    create_counter_set(host, {"smsp__warps_launched.sum", "dram__bytes_read.sum"}, sink.set);
    session = start_counting_session(api, sink, target, host, mode);
  }
  void TearDown() override { session->stop(); }

  void call(CUpti_CallbackDomain domain, uint32_t cbid, uint32_t cupti_id,
            CUpti_ApiCallbackSite site, const void* params, const char* symbol = nullptr,
            const void* result = nullptr) {
    static uint64_t slot = 0;
    CUpti_CallbackData cb{};
    cb.functionName = "call";
    cb.symbolName = symbol;
    cb.correlationId = cupti_id;
    cb.correlationData = &slot;
    cb.callbackSite = site;
    cb.context = k_context;
    cb.contextUid = 3;
    cb.functionParams = params;
    cb.functionReturnValue = const_cast<void*>(result);  // CUPTI only reads it here
    session->on_api(domain, cbid, cb);
  }
  void driver(uint32_t cbid, uint32_t cupti_id, const void* params, const char* symbol = nullptr,
              const CUresult* result = nullptr) {
    call(CUPTI_CB_DOMAIN_DRIVER_API, cbid, cupti_id, CUPTI_API_ENTER, params, symbol);
    call(CUPTI_CB_DOMAIN_DRIVER_API, cbid, cupti_id, CUPTI_API_EXIT, params, symbol, result);
  }
  void deliver(std::vector<const CUpti_Activity*> records) {
    api.buffer_records = std::move(records);
    api.next_index = 0;
    uint8_t dummy[8] = {};
    testing::internal::CaptureStderr();
    session->on_buffer_completed(nullptr, 0, dummy, sizeof(dummy));
    testing::internal::GetCapturedStderr();
  }
};

}  // namespace rocprof::cuda::test
