#include "common/json_object.hpp"

namespace rocprof::formats {

nlohmann::ordered_json parse_json_object(std::string_view text) {
  auto j = nlohmann::ordered_json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return nlohmann::ordered_json::object();
  return j;
}

}  // namespace rocprof::formats
