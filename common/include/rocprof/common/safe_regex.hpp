// Regular expressions from users (--kernel-include-regex, --kernel-exclude-regex,
// --summary-groups): checked before they are compiled, and matched in linear time.
//
// rocprofv3 compiles these with std::regex (ECMAScript), whose recursive backtracking overflows
// the stack on deeply nested patterns and takes exponential time on patterns such as (a*)*b.
// Here a pattern is first checked for length, group nesting and the ECMAScript constructs the
// matcher cannot run (backreferences, lookahead, lookbehind: errors that name the construct),
// then compiled by RE2, an automaton-based engine without backtracking. Matching is bytewise,
// as std::regex<char> does; patterns must be valid UTF-8 (they reach the settings JSON).
//
// The CLI checks every pattern before it launches the application; the tool compiles the same
// patterns with the same rules, so a pattern the CLI accepted never fails in the tool.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace rocprof::common {

inline constexpr size_t k_regex_max_length = 4096;  // bytes
inline constexpr size_t k_regex_max_nesting = 32;   // nested groups

class safe_regex {
 public:
  // The compiled pattern, or std::nullopt with the reason in *error (which names the construct
  // or the limit; the caller adds the option and the pattern). `error` may be null.
  static std::optional<safe_regex> compile(std::string_view pattern, std::string* error);

  // A match anywhere in `text` (std::regex_search).
  bool search(std::string_view text) const;
  // `text` matches as a whole (std::regex_match).
  bool full_match(std::string_view text) const;

 private:
  explicit safe_regex(std::shared_ptr<const re2::RE2> compiled) : re_(std::move(compiled)) {}
  std::shared_ptr<const re2::RE2> re_;  // shared: copies are cheap; RE2 matching is thread-safe
};

// Why `pattern` cannot be used, or an empty string when it can.
std::string regex_problem(std::string_view pattern);

// `pattern` for a message: quoted, cut to its first 80 bytes.
std::string quote_pattern(std::string_view pattern);

}  // namespace rocprof::common
