#include "rocprof/config/values.hpp"

#include <algorithm>
#include <cctype>

namespace rocprof::config {

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string to_upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

std::optional<bool> parse_bool_word(std::string_view text) {
  const std::string word = to_lower(text);
  for (const char* yes : {"y", "yes", "t", "true", "on", "1"}) {
    if (word == yes) return true;
  }
  for (const char* no : {"n", "no", "f", "false", "off", "0"}) {
    if (word == no) return false;
  }
  return std::nullopt;
}

std::optional<bool> parse_env_bool(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string word = to_lower(text);
  for (const char* no : {"0", "off", "false", "no", "n", "f"}) {
    if (word == no) return false;
  }
  if (std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return word.find_first_not_of('0') != std::string::npos;
  }
  return true;
}

std::optional<uint64_t> parse_integer(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (const char c : text) {
    const int digit = std::isdigit(static_cast<unsigned char>(c))
                          ? c - '0'
                          : (base == 16 && std::isxdigit(static_cast<unsigned char>(c))
                                 ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                 : -1);
    if (digit < 0) return std::nullopt;
    const auto next = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(digit);
    if (next / static_cast<uint64_t>(base) != value) return std::nullopt;  // overflow
    value = next;
  }
  return value;
}

std::vector<std::string> split_any(std::string_view text, std::string_view separators) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = text.find_first_of(separators, pos);
    const size_t stop = end == std::string_view::npos ? text.size() : end;
    if (stop > pos) out.emplace_back(text.substr(pos, stop - pos));
    pos = stop + 1;
  }
  return out;
}

std::vector<std::string> split_on(std::string_view text, std::string_view separator) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t end = separator.empty() ? std::string_view::npos : text.find(separator, pos);
    const size_t stop = end == std::string_view::npos ? text.size() : end;
    if (stop > pos) out.emplace_back(text.substr(pos, stop - pos));
    pos = stop + separator.size();
    if (end == std::string_view::npos) break;
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::vector<std::string> parse_pmc_line(std::string_view line) {
  line = line.substr(0, line.find('#'));
  const size_t tag = line.find("pmc:");
  if (tag != std::string_view::npos) line.remove_prefix(tag + 4);
  // ':' and '=' are kept so that a NAME:device=N suffix survives, '.' so that NVIDIA metric
  // names do (values.hpp).
  std::string cleaned(line);
  for (char& c : cleaned) {
    if (std::string_view("!@$%&(),*+-/;<>?{}^`~|").find(c) != std::string_view::npos) c = ' ';
  }
  std::vector<std::string> out;
  for (auto& name : split_any(cleaned, " \t\r\n")) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
  }
  return out;
}

std::optional<counter_request> parse_counter_request(std::string_view text) {
  counter_request out;
  const size_t colon = text.find(':');
  out.name = std::string(text.substr(0, colon));
  if (colon == std::string_view::npos) return out;
  constexpr std::string_view key = "device=";
  const std::string_view rest = text.substr(colon + 1);
  if (rest.substr(0, key.size()) != key) return std::nullopt;
  const std::string_view digits = rest.substr(key.size());
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  out.device = parse_integer(digits);
  if (!out.device) return std::nullopt;
  return out;
}

bool iteration_range::contains(uint64_t iteration) const {
  if (all()) return true;
  // First interval that ends at or after the iteration.
  const auto it = std::lower_bound(intervals.begin(), intervals.end(), iteration,
                                   [](const std::pair<uint64_t, uint64_t>& interval,
                                      uint64_t value) { return interval.second < value; });
  return it != intervals.end() && it->first <= iteration;
}

iteration_range_result parse_iteration_range(std::string_view text) {
  iteration_range_result out;
  const auto number = [](const std::string& token) -> std::optional<uint64_t> {
    if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) return {};
    return parse_integer(token);
  };
  for (const auto& token : split_any(text, "[], \t")) {
    const size_t dash = token.find('-');
    if (dash == std::string::npos) {
      const auto value = number(token);
      if (!value) {
        out.error = "'" + token + "' is not an iteration number";
        return out;
      }
      out.range.intervals.emplace_back(*value, *value);
      continue;
    }
    const auto first = number(token.substr(0, dash));
    const auto last = number(token.substr(dash + 1));
    if (!first || !last) {
      out.error = "'" + token + "' is not a range A-B of two iteration numbers";
      return out;
    }
    if (*first > *last) {
      out.error = "'" + token + "' is an empty range (its start is after its end)";
      return out;
    }
    out.range.intervals.emplace_back(*first, *last);
  }
  // Sorted and merged, so that contains() is one binary search and a huge range costs nothing.
  auto& v = out.range.intervals;
  std::sort(v.begin(), v.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& interval : v) {
    if (!merged.empty() &&
        (merged.back().second == UINT64_MAX || interval.first <= merged.back().second + 1)) {
      merged.back().second = std::max(merged.back().second, interval.second);
    } else {
      merged.push_back(interval);
    }
  }
  v = std::move(merged);
  return out;
}

}  // namespace rocprof::config
