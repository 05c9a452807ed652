// JSON objects carried as text in the trace model (process config, backends' extdata), parsed
// for writers that add keys to them or embed them. Internal to the writers: it exposes nlohmann.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace rocprof::formats {

// The object `text` holds; an empty object when it is not valid JSON or not an object.
nlohmann::ordered_json parse_json_object(std::string_view text);

}  // namespace rocprof::formats
