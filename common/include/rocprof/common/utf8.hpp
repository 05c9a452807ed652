// UTF-8 checks for text that reaches JSON outputs and messages (counter names, regexes): a
// JSON serializer refuses invalid UTF-8, so such text is refused where it is read instead.
#pragma once

#include <cstddef>
#include <string_view>

namespace rocprof::common {

// The offset of the first byte that does not start a well-formed UTF-8 sequence (overlong
// forms, surrogates and code points past U+10FFFF included), or std::string_view::npos.
size_t invalid_utf8_offset(std::string_view text);

inline bool is_valid_utf8(std::string_view text) {
  return invalid_utf8_offset(text) == std::string_view::npos;
}

// The first code point of `text` that is a control character (C0, DEL or C1), as its offset, or
// npos. `text` must be valid UTF-8.
size_t control_character_offset(std::string_view text);

}  // namespace rocprof::common
