#include "rocprof/config/collection_period.hpp"

#include <cmath>
#include <cstdlib>

#include "rocprof/config/values.hpp"

namespace rocprof::config {
namespace {

std::optional<double> unit_factor(std::string_view unit) {
  const std::pair<std::string_view, double> units[] = {
      {"hour", 3.6e12}, {"min", 6e10}, {"sec", 1e9}, {"msec", 1e6}, {"usec", 1e3}, {"nsec", 1.0}};
  for (const auto& [name, factor] : units) {
    if (unit == name) return factor;
  }
  return std::nullopt;
}

// digits[.digits][e[+-]digits], or .digits[...]: what a user writes; strtod alone would also
// take "inf", "nan", hexadecimal floats and leading spaces.
bool plain_decimal(std::string_view text) {
  size_t at = 0;
  const auto digits = [&] {
    const size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9')
      ++at;
    return at - start;
  };
  size_t mantissa = digits();
  if (at < text.size() && text[at] == '.') {
    ++at;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    if (digits() == 0) return false;
  }
  return at == text.size();
}

bool split_three(std::string_view text, std::string_view parts[3]) {
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t colon = text.find(':', start);
    if ((i < 2) == (colon == std::string_view::npos)) return false;
    parts[i] = text.substr(start, colon == std::string_view::npos ? colon : colon - start);
    start = colon + 1;
  }
  return true;
}

std::optional<uint64_t> decimal_integer(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return parse_integer(text);
}

}  // namespace

period_result parse_period_in_unit(std::string_view text, std::string_view unit) {
  period_result result;
  const std::string quoted = "'" + std::string(text) + "'";
  const auto factor = unit_factor(unit);
  if (!factor) {
    result.error = "unknown unit '" + std::string(unit) + "'";
    return result;
  }
  std::string_view parts[3];
  if (!split_three(text, parts)) {
    result.error = quoted + " is not DELAY:DURATION:REPEAT";
    return result;
  }
  uint64_t ns[2] = {0, 0};
  const char* names[2] = {"delay", "duration"};
  for (int i = 0; i < 2; ++i) {
    if (!plain_decimal(parts[i])) {
      result.error = quoted + ": the " + names[i] + " '" + std::string(parts[i]) +
                     "' is not a non-negative number";
      return result;
    }
    const double value = std::strtod(std::string(parts[i]).c_str(), nullptr) * *factor;
    // 2^63 is exact in a double; anything at or above it does not fit.
    if (!std::isfinite(value) || value >= 9223372036854775808.0) {
      result.error = quoted + ": the " + names[i] + " is longer than " +
                     std::to_string(k_max_period_ns) + " ns";
      return result;
    }
    ns[i] = static_cast<uint64_t>(std::llround(value));
  }
  const auto repeat = decimal_integer(parts[2]);
  if (!repeat) {
    result.error = quoted + ": the repeat count '" + std::string(parts[2]) +
                   "' is not a non-negative integer that fits in 64 bits";
    return result;
  }
  result.period = collection_period{ns[0], ns[1], *repeat};
  return result;
}

period_result parse_period_ns(std::string_view text) {
  period_result result;
  std::string_view parts[3];
  std::optional<uint64_t> values[3];
  bool valid = split_three(text, parts);
  for (int i = 0; valid && i < 3; ++i) {
    values[i] = decimal_integer(parts[i]);
    valid = values[i].has_value() && (i == 2 || *values[i] <= k_max_period_ns);
  }
  if (!valid) {
    result.error = "'" + std::string(text) +
                   "' is not DELAY:DURATION:REPEAT in nanoseconds (delay and duration at most " +
                   std::to_string(k_max_period_ns) + ")";
    return result;
  }
  result.period = collection_period{*values[0], *values[1], *values[2]};
  return result;
}

std::string format_period_ns(const collection_period& period) {
  return std::to_string(period.delay_ns) + ":" + std::to_string(period.duration_ns) + ":" +
         std::to_string(period.repeat);
}

}  // namespace rocprof::config
