// JSON text written by hand, for writers that stream large arrays as text instead of building
// nlohmann objects (the JSON writer's records, rocpd's extdata columns).
#pragma once

#include <string>
#include <string_view>

namespace rocprof::formats {

// Appends s as a JSON string literal (quotes included, escaped per RFC 8259).
void append_json_string(std::string& out, std::string_view s);
// Appends a double with up to 16 significant digits (cereal's precision), never NaN/Inf text.
void append_json_double(std::string& out, double v);

}  // namespace rocprof::formats
