// A backend_sink for tests that keeps everything it is given, in order. It is the harness the
// code under test reports to, standing in for the profiler core (not for the code under test).
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "backend_sink.hpp"

namespace rocprof::cuda::test {

class recording_sink : public backend_sink {
 public:
  bool domains[static_cast<size_t>(cuda_domain::count)] = {};
  uint64_t cpu_agent = 1;

  // Each reading advances the clock by clock_step (0: always 1).
  uint64_t clock = 1, clock_step = 0;
  uint64_t timestamp() override {
    const uint64_t now = clock;
    clock += clock_step;
    return now;
  }
  uint64_t next_correlation_id() override { return next_id++; }
  // The external id "pushed" on the calling thread (by a test, standing in for a ROCTx range).
  inline static thread_local uint64_t thread_external = 0;
  uint64_t external_id() override { return thread_external; }
  bool enabled(cuda_domain d) override { return domains[static_cast<size_t>(d)]; }
  bool api_traced(api_domain d, uint32_t) override {
    return enabled(d == api_domain::runtime ? cuda_domain::runtime_api : cuda_domain::driver_api);
  }
  void api_enter(api_event& e) override {
    e.correlation_id = next_correlation_id();
    e.external_id = external_id();  // as the core's api_enter fills the scope
    enters.push_back(e);
  }
  void api_exit(const api_event& e) override { api.push_back(e); }
  // Records made after the fact (API activity records) land beside the callbacks' ones.
  void emit_api_record(const api_event& e) override {
    api.push_back(e);
    ++after_the_fact;
  }
  bool api_callbacks = false;  // a context traces a CUDA API domain through callbacks
  bool api_callbacks_requested() override { return api_callbacks; }
  void emit(const kernel_event& e) override { kernels.push_back(e); }
  void emit(const memcpy_event& e) override { copies.push_back(e); }
  void emit(const memset_event& e) override { sets.push_back(e); }
  void emit(const allocation_event& e) override { allocations.push_back(e); }
  uint64_t register_gpu(const gpu_agent& a) override {
    agents.push_back(a);
    return 100 + agents.size();
  }
  uint64_t cpu_agent_id() override { return cpu_agent; }
  bool launch_time_ids = false;  // a tool pushes or requests external ids for launched work
  bool launch_time_ids_needed() override { return launch_time_ids; }
  void code_object_loaded(const code_object_event& e) override { code_objects.push_back(e); }
  void kernel_symbol(const kernel_symbol_event& e) override {
    symbols.emplace_back(e.kernel_id, e.mangled_name);
    kernel_symbols.emplace_back(e.code_object_id, e.mangled_name);
  }
  void dropped(uint64_t n) override { dropped_count += n; }

  void enable_all() {
    for (bool& d : domains)
      d = true;
  }

  std::atomic<uint64_t> next_id{1};
  std::vector<api_event> enters, api;
  std::vector<kernel_event> kernels;
  std::vector<memcpy_event> copies;
  std::vector<memset_event> sets;
  std::vector<allocation_event> allocations;
  std::vector<gpu_agent> agents;
  std::vector<code_object_event> code_objects;
  std::vector<std::pair<uint64_t, std::string>> symbols;         // (kernel id, name)
  std::vector<std::pair<uint64_t, std::string>> kernel_symbols;  // (code object id, name)
  uint64_t dropped_count = 0;
  size_t after_the_fact = 0;  // of `api`, given by emit_api_record
};

}  // namespace rocprof::cuda::test
