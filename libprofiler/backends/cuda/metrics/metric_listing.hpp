// A chip's metrics as one JSON document, for `rocprofv3 --list-avail` offline (the exported
// rocprof_cuda_list_metrics_json, metric_listing_entry.cpp, hands it to the CLI):
//
//   {"chip": "GH100", "requested": "sm_90", "architecture": "sm_90",
//    "profiler_type": "range_profiler", "max_hardware_metrics_per_pass": 88,
//    "counts": {"counter": 3389, "ratio": 205, "throughput": 56, "base": 3650, "full": 150179},
//    "sub_metric_sets": [[".avg", ".avg.peak_sustained", ...], [".max_rate", ".pct", ".ratio"]],
//    "metrics": [{"name": "smsp__warps_launched", "type": "counter",
//                 "description": "# of warps launched", "hw_unit": "smsp",
//                 "dimension_unit": "warp", "sub_metric_set": 0}, ...],
//    "supported_chips": ["GV100", ...],
//    "error": "..."}                       (only when the chip could not be listed)
//
// A full metric name is a "name" followed by one entry of its sub-metric set. Sub-metric lists
// are shared because they repeat (on GH100 three distinct lists serve 3 650 metrics), which
// keeps the document near 0.8 MB instead of 6.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "metric_catalogue.hpp"

namespace rocprof::cuda {

// The document for one open catalogue (no "requested", "supported_chips" or "error").
nlohmann::json metric_listing(metric_catalogue& catalogue);

// The whole document for `chip_or_architecture` ("GH100", "sm_90", "9.0"; an architecture
// lists its representative chip) and `profiler_type` (0 range profiler, 1 PM sampling, as
// CUpti_ProfilerType). `api` may be nullptr: the document then carries `unavailable` as its
// error. Never throws.
std::string list_metrics_json(profiler_host_api* api, std::string_view unavailable,
                              std::string_view chip_or_architecture, int profiler_type);

}  // namespace rocprof::cuda
