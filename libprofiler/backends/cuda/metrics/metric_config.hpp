// Pass counting and config images: a list of full metric names becomes the config image the
// range profiler's SetConfig (or PM sampling's) takes on the target side, and the number of
// replay passes it needs (cuptiProfilerHostGetNumOfPasses). Works offline for any chip CUPTI
// lists; on a GPU, pass the device's counter availability image in the target so the plan
// matches what the device exposes.
//
// All names go to one ConfigAddMetrics call: CUPTI plans passes per call, so adding the same
// names one call at a time yields one pass per call (measured: 3 metrics, 1 call → 1 pass;
// 2 + 1 calls → 3 passes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host_object.hpp"

namespace rocprof::cuda {

struct metric_config {
  host_target target;
  std::vector<std::string> metrics;  // in the order given; evaluation returns values in it
  std::vector<uint8_t> image;        // the config image
  size_t passes = 0;
  // The host object the config was built in, kept for evaluation of the counter data that the
  // config produces (metric_evaluation.hpp).
  host_object host;
};

// Builds the config of `metrics` for `target` into `out`. On failure the message names the
// metrics CUPTI rejects alone, or says that each is valid but the set cannot be scheduled.
host_status build_metric_config(profiler_host_api& api, const host_target& target,
                                const std::vector<std::string>& metrics, metric_config& out);

// Whether CUPTI takes `metrics` in one config for `target`, tried in a fresh host object (a
// refusal spoils the object it happens in); ~1-2 ms. The status carries CUPTI's answer.
host_status try_metrics(profiler_host_api& api, const host_target& target,
                        const std::vector<std::string>& metrics);

// The number of passes `image` needs (0 with a failure status when CUPTI cannot tell).
host_status count_passes(profiler_host_api& api, const std::vector<uint8_t>& image, size_t& passes);

}  // namespace rocprof::cuda
