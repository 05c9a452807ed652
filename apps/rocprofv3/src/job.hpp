// A job: the option values of one run configuration, keyed by schema key. A key that is absent
// is "unset" (argparse None), which is what aggregate expansion and merging rely on.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace rocprof::cli {

// bool, integer, string (string/choice), list (string_list/choice_list/group_list; a group is
// its counters joined by spaces).
using option_value = std::variant<bool, uint64_t, std::string, std::vector<std::string>>;

struct job {
  std::map<std::string, option_value> values;
  std::map<std::string, std::string> where;  // key -> "file.yaml:12" for messages, when known

  bool has(const std::string& key) const { return values.count(key) != 0; }
  bool flag(const std::string& key) const;  // unset or false -> false
  std::optional<std::string> text(const std::string& key) const;
  std::vector<std::string> list(const std::string& key) const;
  std::optional<uint64_t> number(const std::string& key) const;
  void set_if_unset(const std::string& key, option_value v) { values.emplace(key, std::move(v)); }
};

// The one error type of the CLI: main() prints "rocprofv3: error: <what>" and exits 1.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Printable form of a value (for --log-level config and conflict messages).
std::string to_string(const option_value& v);

}  // namespace rocprof::cli
