#include "rocprof/config/values.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "rocprof/common/utf8.hpp"

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
  std::unordered_set<std::string> seen;  // linear: 200 000 names take milliseconds, not minutes
  for (auto& name : split_any(cleaned, " \t\r\n")) {
    if (seen.insert(name).second) out.push_back(std::move(name));
  }
  return out;
}

std::string counter_name_problem(std::string_view name) {
  if (name.empty()) return "an empty counter name";
  if (name.size() > k_counter_name_max_length) {
    return "a counter name is longer than " + std::to_string(k_counter_name_max_length) + " bytes";
  }
  if (const size_t at = common::invalid_utf8_offset(name); at != std::string_view::npos) {
    return "counter name '" + std::string(name.substr(0, at)) + "...' is not valid UTF-8 (byte " +
           std::to_string(at) + ")";
  }
  if (const size_t at = common::control_character_offset(name); at != std::string_view::npos) {
    return "counter name '" + std::string(name.substr(0, at)) +
           "...' contains a control character (byte " + std::to_string(at) + ")";
  }
  return {};
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

}  // namespace rocprof::config
