#include "job.hpp"

#include "rocprof/config/values.hpp"

namespace rocprof::cli {

bool job::flag(const std::string& key) const {
  const auto it = values.find(key);
  if (it == values.end()) return false;
  const auto* b = std::get_if<bool>(&it->second);
  return b != nullptr && *b;
}

std::optional<std::string> job::text(const std::string& key) const {
  const auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  if (const auto* s = std::get_if<std::string>(&it->second)) return *s;
  return to_string(it->second);
}

std::vector<std::string> job::list(const std::string& key) const {
  const auto it = values.find(key);
  if (it == values.end()) return {};
  if (const auto* l = std::get_if<std::vector<std::string>>(&it->second)) return *l;
  return {to_string(it->second)};
}

std::optional<uint64_t> job::number(const std::string& key) const {
  const auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  if (const auto* n = std::get_if<uint64_t>(&it->second)) return *n;
  return std::nullopt;
}

std::string to_string(const option_value& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
  if (const auto* n = std::get_if<uint64_t>(&v)) return std::to_string(*n);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  const auto& l = std::get<std::vector<std::string>>(v);
  std::string out = "[";
  for (size_t i = 0; i < l.size(); ++i)
    out += (i ? ", '" : "'") + l[i] + "'";
  return out + "]";
}

}  // namespace rocprof::cli
