#include "notices.hpp"

#include <atomic>
#include <cstdlib>

namespace rocprof::cuda {
namespace {

std::atomic<bool> g_cuda_api_requested{false};
std::atomic<bool> g_injection_requested{false};

}  // namespace

void note_cuda_api_requested() {
  g_cuda_api_requested.store(true, std::memory_order_relaxed);
}

void note_injection_requested() {
  g_injection_requested.store(true, std::memory_order_relaxed);
}

bool verbose_diagnostics() {
  return std::getenv("ROCPROF_CUDA_VERBOSE") != nullptr;
}

bool notices_wanted() {
  return g_cuda_api_requested.load(std::memory_order_relaxed) ||
         g_injection_requested.load(std::memory_order_relaxed) || verbose_diagnostics();
}

bool notices_wanted(backend_sink& sink) {
  return notices_wanted() || sink.enabled(cuda_domain::runtime_api) ||
         sink.enabled(cuda_domain::driver_api);
}

}  // namespace rocprof::cuda
