// rocprof_cuda_list_metrics_json: a chip's metrics for `rocprofv3 --list-avail`, offline
// (metrics/metric_listing.hpp). The CLI opens this plugin with dlopen and calls it; no GPU, no
// driver and no profiler core are needed, only libcupti with its libnvperf_host.
//
//   chip:          a CUPTI chip name ("GH100") or an architecture ("sm_90", "9.0"), which lists
//                  the architecture's representative chip
//   profiler_type: 0 the range profiler (per-kernel counters), 1 PM sampling
//
// Returns JSON that stays valid until the plugin is closed; never NULL, never throws.
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "metrics/metric_listing.hpp"
#include "metrics/profiler_host_loader.hpp"
#include "rocprof/common/c_boundary.hpp"

namespace {

struct listing_state {
  std::mutex mutex;
  bool loaded = false;
  rocprof::cuda::cupti_library cupti;
  rocprof::cuda::profiler_host_library host;
  std::map<std::pair<std::string, int>, std::string> documents;
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const char* rocprof_cuda_list_metrics_json(
    const char* chip, int profiler_type) {
  static const char* const failed = R"({"error":"the metric listing failed"})";
  return rocprof::c_boundary::guarded_or(__func__, failed, [&]() -> const char* {
    // Leaked on purpose: callers may read the text until they close the plugin.
    static listing_state* state = new listing_state;
    std::lock_guard<std::mutex> lock{state->mutex};
    if (!state->loaded) {
      state->loaded = true;
      // Shares a libcupti already in the process (RTLD_NOLOAD first), as tracing does.
      state->cupti = rocprof::cuda::load_cupti([](const char* name) { return std::getenv(name); });
      state->host = rocprof::cuda::open_profiler_host(state->cupti);
    }
    auto key = std::make_pair(std::string{chip != nullptr ? chip : ""}, profiler_type);
    auto it = state->documents.find(key);
    if (it == state->documents.end()) {
      std::string text = rocprof::cuda::list_metrics_json(state->host.api.get(), state->host.error,
                                                          key.first, profiler_type);
      it = state->documents.emplace(std::move(key), std::move(text)).first;
    }
    return it->second.c_str();
  });
}
