#include "rocprof/common/safe_regex.hpp"

#include <re2/re2.h>

#include "rocprof/common/utf8.hpp"

namespace rocprof::common {
namespace {

// The constructs of an ECMAScript pattern that RE2 cannot run, named for the message; empty
// when there are none. Also checks group nesting. One pass, no recursion.
std::string unsupported_construct(std::string_view p) {
  size_t depth = 0;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    const char next = i + 1 < p.size() ? p[i + 1] : '\0';
    if (c == '\\') {
      if (!in_class && next >= '1' && next <= '9') {
        return std::string("backreference \\") + next + " is not supported";
      }
      if (!in_class && next == 'k' && i + 2 < p.size() && p[i + 2] == '<') {
        return "named backreference \\k<...> is not supported";
      }
      if (next == 'u') return "\\u escape is not supported (write \\x{HHHH})";
      if (next == 'c') return "control escape \\c is not supported (write \\x{HH})";
      ++i;  // the escaped character is literal for nesting purposes
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      // A ']' right after '[' or '[^' is a literal member (RE2's reading).
      if (next == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;
      continue;
    }
    if (c == ')') {
      if (depth > 0) --depth;
      continue;
    }
    if (c != '(') continue;
    if (++depth > k_regex_max_nesting) {
      return "groups nested more than " + std::to_string(k_regex_max_nesting) + " deep";
    }
    if (next != '?') continue;
    const std::string_view rest = p.substr(i + 2, 2);
    if (rest.substr(0, 1) == "=") return "lookahead (?=...) is not supported";
    if (rest.substr(0, 1) == "!") return "negative lookahead (?!...) is not supported";
    if (rest == "<=") return "lookbehind (?<=...) is not supported";
    if (rest == "<!") return "negative lookbehind (?<!...) is not supported";
    if (rest.substr(0, 1) == "<") return "named group (?<name>...) is not supported";
  }
  return {};
}

std::string precheck(std::string_view pattern) {
  if (pattern.size() > k_regex_max_length) {
    return "longer than " + std::to_string(k_regex_max_length) + " bytes";
  }
  if (const size_t at = invalid_utf8_offset(pattern); at != std::string_view::npos) {
    return "not valid UTF-8 (byte " + std::to_string(at) + ")";
  }
  return unsupported_construct(pattern);
}

}  // namespace

std::optional<safe_regex> safe_regex::compile(std::string_view pattern, std::string* error) {
  std::string problem = precheck(pattern);
  if (problem.empty()) {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);  // bytewise, as std::regex<char>
    options.set_log_errors(false);
    options.set_never_capture(true);
    auto compiled =
        std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (compiled->ok()) return safe_regex(std::move(compiled));
    problem = compiled->error();
  }
  if (error != nullptr) *error = std::move(problem);
  return std::nullopt;
}

bool safe_regex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

bool safe_regex::full_match(std::string_view text) const {
  return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

std::string regex_problem(std::string_view pattern) {
  std::string error;
  return safe_regex::compile(pattern, &error) ? std::string() : error;
}

std::string quote_pattern(std::string_view pattern) {
  constexpr size_t shown = 80;
  if (pattern.size() <= shown) return "'" + std::string(pattern) + "'";
  return "'" + std::string(pattern.substr(0, shown)) + "...' (" + std::to_string(pattern.size()) +
         " bytes)";
}

}  // namespace rocprof::common
