// YAML input files as JSON values, built from the parser's events so that anchors and aliases
// are resolved under limits: a self-referential alias (`a: &a [*a, *a]`) is an error, and a
// "billion laughs" file of nested aliases stops at a budget instead of growing to gigabytes.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rocprof::cli {

inline constexpr size_t k_input_max_depth = 64;  // nested sequences / mappings (also JSON)
inline constexpr size_t k_yaml_max_alias_values = 100000;           // values copied by aliases
inline constexpr size_t k_yaml_max_alias_bytes = size_t{16} << 20;  // scalar text, likewise

struct yaml_document {
  nlohmann::json root;  // null for an empty document
  // Per entry of the top-level `jobs` list: key -> 1-based line, for messages.
  std::vector<std::map<std::string, int>> job_key_lines;
};

// Parses the first document of `text`. Scalars keep their YAML type (bool, integer, string), as
// PyYAML gives them; quoted scalars are always strings. Throws usage_error naming `path` and
// the line for malformed YAML, a non-scalar key, nesting past k_input_max_depth, a recursive
// alias, or aliases past their budget.
yaml_document read_yaml_text(const std::string& text, const std::string& path);

}  // namespace rocprof::cli
