// Small JSON text helpers for the streamed writer (large arrays are written as text, not built
// as nlohmann objects).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rocprof::formats::json {

// Appends s as a JSON string literal (quotes included, escaped per RFC 8259).
void append_string(std::string& out, std::string_view s);
// Appends a double with up to 16 significant digits (cereal's precision), never NaN/Inf text.
void append_double(std::string& out, double v);

}  // namespace rocprof::formats::json
