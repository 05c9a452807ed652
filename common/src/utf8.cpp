#include "rocprof/common/utf8.hpp"

#include <cstdint>

namespace rocprof::common {
namespace {

// Length of the well-formed sequence starting at `at`, or 0 (Unicode table 3-7).
size_t sequence_length(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(at);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint8_t low = 0x80, high = 0xBF;  // range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong forms
    if (lead == 0xF4) high = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() - at < length) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

size_t invalid_utf8_offset(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const size_t length = sequence_length(text, at);
    if (length == 0) return at;
    at += length;
  }
  return std::string_view::npos;
}

size_t control_character_offset(std::string_view text) {
  for (size_t at = 0; at < text.size(); ++at) {
    const auto c = static_cast<uint8_t>(text[at]);
    if (c < 0x20 || c == 0x7F) return at;
    // C1 controls U+0080..U+009F are encoded C2 80..C2 9F.
    if (c == 0xC2 && at + 1 < text.size()) {
      const auto next = static_cast<uint8_t>(text[at + 1]);
      if (next >= 0x80 && next <= 0x9F) return at;
    }
  }
  return std::string_view::npos;
}

}  // namespace rocprof::common
