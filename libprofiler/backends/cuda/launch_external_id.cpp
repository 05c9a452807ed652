#include "launch_external_id.hpp"

#include <atomic>
#include <cstring>
#include <initializer_list>

namespace rocprof::cuda {
namespace {

bool has_prefix(const char* name, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes)
    if (std::strncmp(name, p, std::strlen(p)) == 0) return true;
  return false;
}

constexpr uint32_t bit(cuda_domain d) {
  return 1u << static_cast<uint32_t>(d);
}

// Per callback id, the work it launches, learned from its name on first sight: 0 not known
// yet, else the bits | known. Relaxed atomics: two threads learning the same id agree.
constexpr uint32_t max_cbid = 1024;
constexpr uint32_t known = 1u << 31;
std::atomic<uint32_t> g_work[2][max_cbid];

// The tool's answer for the launch in progress on this thread (see the header); one block, its
// address taken once per call (a __tls_get_addr call per access in this dlopen'ed library).
struct kept_answer {
  uint64_t owner = 0;
  uint64_t value = 0;
};
thread_local kept_answer t_answer;

// Set once a call that begins a stream capture is seen; launches are checked for capture after.
std::atomic<bool> g_capture_begun{false};

constexpr uint32_t launching = bit(cuda_domain::kernel_dispatch) | bit(cuda_domain::memory_copy) |
                               bit(cuda_domain::memory_set);

}  // namespace

uint32_t launch_work_of(const char* name) {
  if (name == nullptr) return 0;
  if (has_prefix(name, {"cudaStreamBeginCapture", "cuStreamBeginCapture"})) return begins_capture;
  if (has_prefix(name, {"cudaGraphLaunch", "cuGraphLaunch"}))
    return bit(cuda_domain::kernel_dispatch) | bit(cuda_domain::memory_copy) |
           bit(cuda_domain::memory_set);
  if (has_prefix(name, {"cudaLaunch", "__cudaLaunch", "cuLaunch"}))
    return bit(cuda_domain::kernel_dispatch);
  if (has_prefix(name, {"cudaMemcpy", "cuMemcpy"})) return bit(cuda_domain::memory_copy);
  if (has_prefix(name, {"cudaMemset", "cuMemset"})) return bit(cuda_domain::memory_set);
  if (has_prefix(name, {"cudaMalloc", "cudaFree", "cudaHostAlloc", "cuMemAlloc", "cuMemFree",
                        "cuMemHostAlloc", "cuMemCreate", "cuMemRelease"}))
    return bit(cuda_domain::memory_allocation);
  return 0;
}

uint64_t launch_external_id(backend_sink& sink, api_domain domain, uint32_t cbid, const char* name,
                            uint64_t owner, bool outermost, uint64_t pushed, const void* params,
                            capture_query capturing) {
  kept_answer& kept = t_answer;
  if (outermost) kept.owner = 0;  // a new call: an earlier answer belongs to another
  if (owner != 0 && owner == kept.owner) return kept.value;
  uint32_t work = 0;
  if (cbid < max_cbid) {
    std::atomic<uint32_t>& slot = g_work[domain == api_domain::runtime ? 0 : 1][cbid];
    work = slot.load(std::memory_order_relaxed);
    if (work == 0) {
      work = launch_work_of(name) | known;
      slot.store(work, std::memory_order_relaxed);
    }
  } else {
    work = launch_work_of(name);
  }
  if ((work & begins_capture) != 0) g_capture_begun.store(true, std::memory_order_relaxed);
  if ((work & launching) != 0 && capturing != nullptr &&
      g_capture_begun.load(std::memory_order_relaxed) && capturing(domain, cbid, params))
    return pushed;
  for (cuda_domain d : {cuda_domain::kernel_dispatch, cuda_domain::memory_copy,
                        cuda_domain::memory_set, cuda_domain::memory_allocation}) {
    uint64_t answer = 0;
    if ((work & bit(d)) != 0 && sink.request_external_id(d, cbid, owner, &answer)) {
      kept.owner = owner;
      kept.value = answer;
      return answer;
    }
  }
  return pushed;
}

}  // namespace rocprof::cuda
