#include "rocprof/config/iteration_range.hpp"

#include <algorithm>
#include <optional>

#include "rocprof/config/values.hpp"

namespace rocprof::config {
namespace {

bool is_separator(char c) {
  return c == ',' || c == ' ';
}

// A piece between separators and brackets: N or A-B.
std::string add_piece(std::string_view piece, std::vector<iteration_interval>& out) {
  const size_t dash = piece.find('-');
  const auto number = [](std::string_view digits) -> std::optional<uint64_t> {
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    return parse_integer(digits);
  };
  const auto first = number(piece.substr(0, dash));
  const auto last = dash == std::string_view::npos ? first : number(piece.substr(dash + 1));
  const std::string quoted = "'" + std::string(piece) + "'";
  if (!first || !last) {
    return dash == std::string_view::npos ? quoted + " is not an iteration number"
                                          : quoted + " is not a range A-B of two iteration numbers";
  }
  if (*first == 0) return quoted + ": iterations count from 1";
  if (*last < *first) return quoted + ": the range ends before it starts";
  out.push_back({*first, *last});
  return {};
}

}  // namespace

bool iteration_range::includes(uint64_t iteration) const {
  if (intervals.empty()) return true;
  const auto it = std::upper_bound(
      intervals.begin(), intervals.end(), iteration,
      [](uint64_t value, const iteration_interval& interval) { return value < interval.first; });
  return it != intervals.begin() && iteration <= std::prev(it)->last;
}

iteration_range parse_iteration_range(std::string_view text) {
  iteration_range out;
  size_t depth = 0;
  size_t opened_at = 0;  // the outermost '[' still open, for the message
  for (size_t at = 0; at < text.size() && out.error.empty();) {
    const char c = text[at];
    if (c == '[') {
      if (depth++ == 0) opened_at = at;
      ++at;
    } else if (c == ']') {
      if (depth == 0) {
        out.error = "']' at offset " + std::to_string(at) + " closes nothing";
      } else {
        --depth;
      }
      ++at;
    } else if (is_separator(c)) {
      ++at;
    } else {
      size_t end = at;
      while (end < text.size() && text[end] != '[' && text[end] != ']' && !is_separator(text[end]))
        ++end;
      out.error = add_piece(text.substr(at, end - at), out.intervals);
      at = end;
    }
  }
  if (out.error.empty() && depth != 0) {
    out.error = "'[' at offset " + std::to_string(opened_at) + " is never closed";
  }
  if (!out.error.empty()) {
    out.intervals.clear();
    return out;
  }
  std::sort(out.intervals.begin(), out.intervals.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<iteration_interval> merged;
  for (const auto& interval : out.intervals) {
    if (!merged.empty() &&
        (merged.back().last == UINT64_MAX || interval.first <= merged.back().last + 1)) {
      merged.back().last = std::max(merged.back().last, interval.last);
    } else {
      merged.push_back(interval);
    }
  }
  out.intervals = std::move(merged);
  return out;
}

}  // namespace rocprof::config
