// Counter data → values. The target side (range profiler or PM sampling) fills a counter data
// image and decodes it; the host API then turns one range (or sample) of it into doubles for
// the metrics of the config that produced it, and names the range.
//
// Kept thin on purpose: a real counter data image needs a GPU, so on CI these are tested only
// through a synthetic profiler_host_api (the parameters handed to CUPTI, the ownership of the
// range name) and the real libcupti's refusal of an empty image; the values themselves are
// checked on the H100 (issue 10's agreement test against ncu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "metric_config.hpp"

namespace rocprof::cuda {

// A decoded counter data image, owned by the caller.
struct counter_data_view {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// values[i] = metric i of `config.metrics` in range `range_index` (EvaluateToGpuValues, in the
// host object the config was built in).
host_status evaluate_range(profiler_host_api& api, const metric_config& config,
                           counter_data_view counter_data, size_t range_index,
                           std::vector<double>& values);

// The same for any names the host object's config contains.
host_status evaluate_range(profiler_host_api& api, const host_object& host,
                           counter_data_view counter_data, size_t range_index,
                           const std::vector<std::string>& metrics, std::vector<double>& values);

// The range's name (AutoRange names ranges "0", "1", ...; UserRange gives the pushed names,
// nested ones joined by `delimiter`). CUPTI allocates the string and leaves freeing it to us.
host_status range_name(profiler_host_api& api, counter_data_view counter_data, size_t range_index,
                       std::string& name, const char* delimiter = "/");

}  // namespace rocprof::cuda
