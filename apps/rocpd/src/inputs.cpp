#include "inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "rocprof/common/placeholders.hpp"

namespace rocprof::rocpd_cli {
namespace {

// "25%" of [lo, hi], or nanoseconds; an empty text is the bound itself.
uint64_t time_value(const std::string& text, uint64_t lo, uint64_t hi, uint64_t bound,
                    const char* option) {
  if (text.empty()) return bound;
  char* end = nullptr;
  if (text.back() == '%') {
    const double pct = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() - 1 || !(pct >= 0.0 && pct <= 100.0))
      throw usage_error(std::string{option} + ": invalid percentage '" + text +
                        "' (between 0% and 100%)");
    return lo + static_cast<uint64_t>(std::llround(static_cast<double>(hi - lo) * pct / 100.0));
  }
  const unsigned long long ns = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || text.front() == '-')
    throw usage_error(std::string{option} + ": invalid time '" + text +
                      "' (a percentage such as 50% or nanoseconds)");
  return ns;
}

}  // namespace

std::vector<std::unique_ptr<database_reader>> open_inputs(const rocpd_args& args) {
  std::vector<std::unique_ptr<database_reader>> out;
  for (const auto& path : args.list("input")) {
    std::string error;
    auto reader = database_reader::open(path, &error);
    if (!reader) throw usage_error(error);
    out.push_back(std::move(reader));
  }
  return out;
}

time_window resolve_window(const rocpd_args& args,
                           const std::vector<std::unique_ptr<database_reader>>& inputs) {
  time_window w;
  w.inclusive = args.flag("inclusive");
  const bool by_time = args.given("start") || args.given("end");
  const bool by_marker = args.given("start_marker") || args.given("end_marker");
  if (!by_time && !by_marker) return w;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& in : inputs)
    if (const auto span = in->time_span()) {
      lo = std::min(lo, span->first);
      hi = std::max(hi, span->second);
    }
  if (lo > hi) throw usage_error("cannot apply a time window: the inputs hold no timed record");
  if (by_time && !by_marker) {
    w.begin = time_value(args.text("start"), lo, hi, lo, "--start");
    w.end = time_value(args.text("end"), lo, hi, hi, "--end");
  } else {
    const auto marker = [&](const std::string& name, uint64_t bound) {
      if (name.empty()) return bound;
      std::string error;
      for (const auto& in : inputs)
        if (const auto t = in->marker_start(name, &error)) return *t;
      throw usage_error(error);
    };
    w.begin = args.given("start") ? time_value(args.text("start"), lo, hi, lo, "--start")
                                  : marker(args.text("start_marker"), lo);
    w.end = args.given("end") ? time_value(args.text("end"), lo, hi, hi, "--end")
                              : marker(args.text("end_marker"), hi);
  }
  if (w.end <= w.begin)
    throw usage_error("empty time window: the end (" + std::to_string(w.end) +
                      ") is not after the start (" + std::to_string(w.begin) + ")");
  return w;
}

std::string output_directory(const rocpd_args& args) {
  return common::expand_placeholders(args.text("output_path"),
                                     common::placeholder_context::for_current_process());
}

std::string output_name(const rocpd_args& args) {
  return common::expand_placeholders(args.text("output_file"),
                                     common::placeholder_context::for_current_process());
}

}  // namespace rocprof::rocpd_cli
