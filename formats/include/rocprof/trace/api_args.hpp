// The arguments of one API call, as the trace model keeps them: one interned string per
// distinct argument list (api_record::args), so that records stay fixed-size and a loop that
// repeats a call with the same arguments costs one string. The text is the return value, then
// each argument's type, name and value, with ASCII separators that never occur in them:
//   <retval> RS <type> US <name> US <value> RS <type> US <name> US <value> ...
// (RS = 0x1e, US = 0x1f; a separator inside a value is replaced by '?').
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rocprof::trace {

inline constexpr char api_args_record_separator = '\x1e';
inline constexpr char api_args_unit_separator = '\x1f';

// Builds the text: start(retval), then add() per argument in order.
class api_args_text {
 public:
  explicit api_args_text(int64_t retval) {
    text_.reserve(256);  // a launch's six arguments fit: one allocation per text
    text_ = std::to_string(retval);
  }
  void add(std::string_view type, std::string_view name, std::string_view value) {
    text_ += api_args_record_separator;
    append_clean(type);
    text_ += api_args_unit_separator;
    append_clean(name);
    text_ += api_args_unit_separator;
    append_clean(value);
  }
  const std::string& text() const { return text_; }

 private:
  // Appended whole, then separators replaced: a character at a time cost more than the rest
  // of a call's argument text together.
  void append_clean(std::string_view part) {
    const size_t from = text_.size();
    text_.append(part);
    for (size_t i = from; i < text_.size(); ++i)
      if (text_[i] == api_args_record_separator || text_[i] == api_args_unit_separator)
        text_[i] = '?';
  }
  std::string text_;
};

struct api_arg_view {
  std::string_view type, name, value;
};

// The return value of a non-empty text (0 when it does not read as a number).
inline int64_t api_args_retval(std::string_view text) {
  int64_t value = 0;
  bool negative = false;
  size_t i = 0;
  if (i < text.size() && text[i] == '-') negative = true, ++i;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
    value = value * 10 + (text[i] - '0');
  return negative ? -value : value;
}

// Calls f(api_arg_view) for every argument of the text, in order.
template <typename F>
void for_each_api_arg(std::string_view text, F&& f) {
  size_t at = text.find(api_args_record_separator);
  while (at != std::string_view::npos) {
    const size_t begin = at + 1;
    const size_t next = text.find(api_args_record_separator, begin);
    const std::string_view entry =
        text.substr(begin, next == std::string_view::npos ? std::string_view::npos : next - begin);
    const size_t a = entry.find(api_args_unit_separator);
    const size_t b = a == std::string_view::npos ? a : entry.find(api_args_unit_separator, a + 1);
    if (b != std::string_view::npos)
      f(api_arg_view{entry.substr(0, a), entry.substr(a + 1, b - a - 1), entry.substr(b + 1)});
    at = next;
  }
}

}  // namespace rocprof::trace
