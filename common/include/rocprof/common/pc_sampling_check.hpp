// Whether a PC sampling request (method, unit, interval) matches one of an agent's offered
// configurations, and if not, what is wrong and which intervals are nearest. Header-only and
// vendor-free: the core checks rocprofiler_configure_pc_sampling_service with it, the CLI checks
// --pc-sampling-* before it launches the application (and words the error).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rocprof::pc_sampling {

/// One offered configuration (rocprofiler_pc_sampling_configuration_t, values as integers).
struct offer {
  int method = 0;
  int unit = 0;
  uint64_t min_interval = 0;
  uint64_t max_interval = 0;
  bool pow2 = false;  // ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2
};

enum class verdict {
  ok,
  not_offered,      // no configuration has this method and unit
  out_of_range,     // interval outside [min_interval, max_interval]
  not_power_of_two  // the configuration wants a power of two
};

/// The outcome; with out_of_range / not_power_of_two, the valid intervals nearest to the one
/// asked for (lower == upper when only one side exists).
struct check_result {
  verdict outcome = verdict::not_offered;
  uint64_t lower = 0;
  uint64_t upper = 0;
};

inline bool is_power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

/// The nearest valid intervals of one configuration around `interval`.
inline check_result nearest_valid(const offer& o, uint64_t interval) {
  check_result r;
  if (interval < o.min_interval || interval > o.max_interval) {
    r.outcome = verdict::out_of_range;
    r.lower = r.upper = interval < o.min_interval ? o.min_interval : o.max_interval;
    if (o.pow2) {  // the extreme powers of two inside the range
      uint64_t p = 1;
      while (p < o.min_interval && p <= (UINT64_MAX >> 1))
        p <<= 1;
      uint64_t q = p;
      while (q <= (UINT64_MAX >> 1) && (q << 1) <= o.max_interval)
        q <<= 1;
      r.lower = r.upper = interval < o.min_interval ? p : q;
    }
    return r;
  }
  if (o.pow2 && !is_power_of_two(interval)) {
    r.outcome = verdict::not_power_of_two;
    uint64_t below = uint64_t{1} << (63 - __builtin_clzll(interval));
    uint64_t above = below <= (UINT64_MAX >> 1) ? below << 1 : below;
    if (below < o.min_interval) below = above;
    if (above > o.max_interval) above = below;
    r.lower = below;
    r.upper = above;
    return r;
  }
  r.outcome = verdict::ok;
  return r;
}

/// Checks a request against every offered configuration: ok if one takes it; otherwise the
/// verdict of the first configuration with that method and unit (not_offered if none).
inline check_result check_request(const offer* offers, size_t count, int method, int unit,
                                  uint64_t interval) {
  check_result first;
  bool seen = false;
  for (size_t i = 0; i < count; ++i) {
    if (offers[i].method != method || offers[i].unit != unit) continue;
    const check_result r = nearest_valid(offers[i], interval);
    if (r.outcome == verdict::ok) return r;
    if (!seen) first = r;
    seen = true;
  }
  return first;
}

}  // namespace rocprof::pc_sampling
