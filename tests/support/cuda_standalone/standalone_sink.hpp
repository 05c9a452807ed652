// Test builds only (never in the installed plugin): the coreless sink of the plugin variant
// librocprofiler-sdk-cuda-standalone.so, injected alone with CUDA_INJECTION64_PATH and
// ROCPROF_CUDA_STANDALONE_OUTPUT=<file.json>. It keeps what the backend reports and writes it
// as one JSON document at exit, so the backend can be verified on a GPU machine on its own
// (tests/integration/cuda) and compared with the bare CUPTI collector.
// API events go into a preallocated array claimed with one atomic add (no lock, no allocation
// on the application's threads); buffer-thread events go into vectors under a mutex.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "coreless_sink.hpp"

namespace rocprof::cuda {

struct standalone_options {
  std::string output_path;
  bool domains[static_cast<size_t>(cuda_domain::count)] = {};
  size_t api_capacity = size_t{1} << 20;
};

// ROCPROF_CUDA_DOMAINS: comma list of runtime,driver,kernel,memcpy,memset,alloc,code (all when
// unset); ROCPROF_CUDA_STANDALONE_OUTPUT: the JSON file.
standalone_options standalone_options_from_env();

class standalone_sink final : public coreless_sink {
 public:
  explicit standalone_sink(standalone_options opts);

  uint64_t timestamp() override;
  uint64_t next_correlation_id() override {
    return next_correlation_.fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t external_id() override { return 0; }
  bool enabled(cuda_domain d) override { return opts_.domains[static_cast<size_t>(d)]; }
  bool api_traced(api_domain d, uint32_t) override {
    return enabled(d == api_domain::runtime ? cuda_domain::runtime_api : cuda_domain::driver_api);
  }
  void api_enter(api_event& e) override { e.correlation_id = next_correlation_id(); }
  void api_exit(const api_event& e) override;
  void emit_api_record(const api_event& e) override { api_exit(e); }
  bool api_callbacks_requested() override { return false; }
  void emit(const kernel_event& e) override;
  void emit(const memcpy_event& e) override;
  void emit(const memset_event& e) override;
  void emit(const allocation_event& e) override;
  uint64_t register_gpu(const gpu_agent& a) override;
  uint64_t cpu_agent_id() override { return 1; }
  void code_object_loaded(const code_object_event& e) override;
  void kernel_symbol(const kernel_symbol_event& e) override;
  void dropped(uint64_t count) override { dropped_.fetch_add(count, std::memory_order_relaxed); }

  // Writes the JSON document; returns false (and says why on stderr) if it cannot.
  bool write(const std::string& extra_status) const;
  void finish(const std::string& status) override { write(status); }

 private:
  standalone_options opts_;
  std::atomic<uint64_t> next_correlation_{1};
  std::unique_ptr<api_event[]> api_;
  std::atomic<size_t> api_count_{0};
  std::atomic<uint64_t> dropped_{0};
  mutable std::mutex mutex_;
  std::vector<kernel_event> kernels_;
  std::vector<memcpy_event> copies_;
  std::vector<memset_event> sets_;
  std::vector<allocation_event> allocations_;
  std::vector<gpu_agent> agents_;
  std::vector<code_object_event> code_objects_;
  struct symbol {
    uint64_t kernel_id, code_object_id;
    std::string name;
  };
  std::vector<symbol> symbols_;
};

}  // namespace rocprof::cuda
