// --collection-period DELAY:DURATION:REPEAT: the CLI converts DELAY and DURATION from
// --collection-period-unit to integer nanoseconds and hands "d:t:r;..." to the tool
// (ROCPROF_COLLECTION_PERIOD), which parses that form. Both sides parse here, with one limit:
// a delay or duration must fit in a signed 64-bit count of nanoseconds (the tool sleeps with
// std::chrono::nanoseconds; about 292 years), so nothing wraps around.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rocprof::config {

struct collection_period {
  uint64_t delay_ns = 0;
  uint64_t duration_ns = 0;
  uint64_t repeat = 0;  // 0 runs once, as rocprofv3 does
};

inline constexpr uint64_t k_max_period_ns = INT64_MAX;

struct period_result {
  std::optional<collection_period> period;
  std::string error;  // why not, when period is empty
};

// One CLI value: DELAY and DURATION plain non-negative decimals ("1", "0.5", "2e3"), REPEAT a
// non-negative integer; `unit` one of hour min sec msec usec nsec.
period_result parse_period_in_unit(std::string_view text, std::string_view unit);

// One item of the tool's form: three non-negative decimal integers, nanoseconds.
period_result parse_period_ns(std::string_view text);

// The tool's form of a period ("d:t:r").
std::string format_period_ns(const collection_period& period);

}  // namespace rocprof::config
