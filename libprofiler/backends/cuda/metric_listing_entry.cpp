// The plugin's offline metric entry points, for the rocprofv3 CLI (`--list-avail`, and the
// checks of `--pmc` before the application starts). The CLI opens this plugin with dlopen and
// calls them; no GPU, no driver and no profiler core are needed, only libcupti with its
// libnvperf_host. Both take `chip`: a CUPTI chip name ("GH100") or an architecture ("sm_90",
// "9.0"), which stands for the architecture's representative chip.
//
// rocprof_cuda_list_metrics_json(chip, profiler_type): a chip's metrics
// (metrics/metric_listing.hpp); profiler_type 0 the range profiler (per-kernel counters), 1 PM
// sampling. Returns JSON that stays valid until the plugin is closed; never NULL, never throws.
//
// rocprof_cuda_count_metric_passes(chip, metrics, count, error, error_size): the hardware passes
// the range profiler needs for these full metric names together (a config image built in one
// ConfigAddMetrics call, then cuptiProfilerHostGetNumOfPasses: metrics/metric_config.hpp). 0 when
// CUPTI refuses them; `error` (may be NULL) then holds the reason, cut to error_size bytes.
// Offline there is no counter-availability image, so the count is CUPTI's plan for the chip
// (a lower bound of what a device with its image needs: README, "Metrics").
//
// rocprof_cuda_counter_source(): names the libcupti and libnvperf_host the two entries above
// answer from (each file's path, size and modification time, and CUPTI's version), so that the
// CLI can keep their answers across runs and see when they stop holding; "" when libcupti is
// not found. It loads libcupti but not libnvperf_host, whose start-up is what makes the first
// two entries slow (~0.3 s and ~110 MB on the build machine).
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "metrics/chip_architecture.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_listing.hpp"
#include "metrics/profiler_host_loader.hpp"
#include "rocprof/common/c_boundary.hpp"
#include "rocprof/common/file_identity.hpp"

namespace {

struct listing_state {
  bool loaded = false;
  rocprof::cuda::cupti_library cupti;
  rocprof::cuda::profiler_host_library host;
  std::map<std::pair<std::string, int>, std::string> documents;
};

// The one state of both entry points, loaded on first use. Leaked on purpose: callers may read
// the listing's text until they close the plugin. Locked by the caller.
listing_state& loaded_state() {
  static listing_state* state = new listing_state;
  if (!state->loaded) {
    state->loaded = true;
    // Shares a libcupti already in the process (RTLD_NOLOAD first), as tracing does.
    state->cupti = rocprof::cuda::load_cupti([](const char* name) { return std::getenv(name); });
    state->host = rocprof::cuda::open_profiler_host(state->cupti);
  }
  return *state;
}

std::mutex& state_mutex() {
  static std::mutex* mutex = new std::mutex;
  return *mutex;
}

// The file a dlopen handle maps (cupti_library::path says "already loaded: <soname>" for a
// copy found mapped).
std::string mapped_file(void* handle) {
  link_map* map = nullptr;
  if (handle == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return {};
  return map->l_name != nullptr ? map->l_name : "";
}

void copy_error(const std::string& text, char* error, uint64_t error_size) {
  if (error == nullptr || error_size == 0) return;
  const size_t n = std::min<size_t>(text.size(), static_cast<size_t>(error_size - 1));
  std::memcpy(error, text.data(), n);
  error[n] = '\0';
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const char* rocprof_cuda_list_metrics_json(
    const char* chip, int profiler_type) {
  static const char* const failed = R"({"error":"the metric listing failed"})";
  return rocprof::c_boundary::guarded_or(__func__, failed, [&]() -> const char* {
    std::lock_guard<std::mutex> lock{state_mutex()};
    listing_state* state = &loaded_state();
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

extern "C" __attribute__((visibility("default"))) uint64_t rocprof_cuda_count_metric_passes(
    const char* chip, const char* const* metrics, uint64_t count, char* error,
    uint64_t error_size) {
  return rocprof::c_boundary::guarded_or(__func__, uint64_t{0}, [&]() -> uint64_t {
    std::lock_guard<std::mutex> lock{state_mutex()};
    listing_state& state = loaded_state();
    if (!state.host.api) {
      copy_error(state.host.error.empty() ? "the CUPTI profiler host API is unavailable"
                                          : state.host.error,
                 error, error_size);
      return 0;
    }
    std::vector<std::string> names;
    for (uint64_t i = 0; i < count; ++i)
      if (metrics != nullptr && metrics[i] != nullptr) names.emplace_back(metrics[i]);
    rocprof::cuda::host_target target;
    target.chip = rocprof::cuda::resolve_chip(chip != nullptr ? chip : "");
    rocprof::cuda::metric_config config;
    const auto status = rocprof::cuda::build_metric_config(*state.host.api, target, names, config);
    if (!status.ok()) {
      copy_error(status.message, error, error_size);
      return 0;
    }
    return static_cast<uint64_t>(config.passes);
  });
}

extern "C" __attribute__((visibility("default"))) const char* rocprof_cuda_counter_source() {
  return rocprof::c_boundary::guarded_or(__func__, "", [&]() -> const char* {
    std::lock_guard<std::mutex> lock{state_mutex()};
    static std::string* text = nullptr;
    if (text != nullptr) return text->c_str();
    const listing_state& state = loaded_state();
    const std::string cupti_path = mapped_file(state.cupti.handle);
    const std::string cupti = rocprof::common::file_identity(cupti_path);
    std::string out;
    if (!cupti.empty()) {
      // CUPTI loads the libnvperf_host that sits beside it (the toolkit ships them together).
      const std::string folder = cupti_path.substr(0, cupti_path.find_last_of('/') + 1);
      out = "cupti " + cupti + " version " + std::to_string(state.cupti.version) +
            "; nvperf_host " + rocprof::common::file_identity(folder + "libnvperf_host.so");
    }
    text = new std::string(std::move(out));  // leaked: callers read it until the plugin closes
    return text->c_str();
  });
}
