// backend_sink over the profiler core's plugin ABI (rocprofiler-sdk/backend/backend_abi.h):
// turns the backend's events into the core's buffer records and callback payloads.
#pragma once

#include <rocprofiler-sdk/backend/backend_abi.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "backend_sink.hpp"

namespace rocprof::cuda {

class abi_sink final : public backend_sink {
 public:
  explicit abi_sink(const rocprof_core_services_t* core);

  // The kinds some context asked for; called by the core's start before the session starts.
  void set_kinds(const rocprof_enabled_kinds_t& kinds);

  uint64_t timestamp() override { return core_->timestamp(); }
  uint64_t next_correlation_id() override { return core_->next_correlation_id(); }
  uint64_t external_id() override;
  bool enabled(cuda_domain d) override;
  bool api_traced(api_domain domain, uint32_t cbid) override;
  void api_enter(api_event& e) override;
  void api_exit(const api_event& e) override;
  void emit_api_record(const api_event& e) override;
  bool api_callbacks_requested() override;
  void emit(const kernel_event& e) override;
  void emit(const memcpy_event& e) override;
  void emit(const memset_event& e) override;
  void emit(const allocation_event& e) override;
  uint64_t register_gpu(const gpu_agent& a) override;
  uint64_t cpu_agent_id() override;
  void code_object_loaded(const code_object_event& e) override;
  void kernel_symbol(const kernel_symbol_event& e) override;
  void dropped(uint64_t count) override;
  bool counting_requested() override { return kinds_.counters != 0; }
  bool counting_active() override { return core_->counting_active() != 0; }
  uint64_t counting_begin(rocprof_counted_dispatch_t& d,
                          const rocprofiler_kernel_dispatch_info_t& info, uint64_t correlation_id,
                          uint64_t external_id) override;
  void counting_end(const rocprof_counted_dispatch_t& d, const double* values, uint64_t count,
                    uint64_t start_ns, uint64_t end_ns) override;
  bool request_external_id(cuda_domain work, uint32_t operation, uint64_t internal_id,
                           uint64_t* external) override;
  bool launch_time_ids_needed() override;
  uint64_t pc_sampling_interval() override;
  void emit_pc_sample(const rocprofiler_pc_sampling_record_aggregated_v0_t& r) override;
  // Whether `agent` is one this backend registered (PC sampling configurations).
  bool owns_agent(uint64_t agent) const;

 private:
  bool buffer_kind(uint32_t kind) const;
  bool callback_kind(uint32_t kind) const;

  const rocprof_core_services_t* core_;
  // The core's api_enter_at, or null for an older core (then api_enter reads the clock again).
  decltype(rocprof_core_services_t::api_enter_at) api_enter_at_ = nullptr;
  rocprof_enabled_kinds_t kinds_{};
  // kinds_.external_request_kinds for the application's threads (all bits: the core is older).
  std::atomic<uint64_t> request_kinds_{~uint64_t{0}};
  std::once_flag cpu_once_;
  std::atomic<uint64_t> cpu_agent_{0};
  mutable std::mutex agents_mutex_;
  std::vector<uint64_t> gpu_agents_;
};

}  // namespace rocprof::cuda
