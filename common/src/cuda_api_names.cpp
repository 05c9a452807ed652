#include "rocprof/common/cuda_api_names.hpp"

#include "rocprof/config/values.hpp"

namespace rocprof::common {

std::vector<std::string> split_cuda_api_names(std::string_view text) {
  return config::split_any(text, " \t,");
}

std::string_view cuda_api_base_name(std::string_view name) {
  size_t digits = 0;
  while (digits < name.size() && name[name.size() - 1 - digits] >= '0' &&
         name[name.size() - 1 - digits] <= '9')
    ++digits;
  constexpr size_t min_version_digits = 4;  // 3020, 7000, 11040: a CUDA version
  const size_t suffix = digits + 2;         // "_v" + digits
  if (digits < min_version_digits || name.size() <= suffix) return name;
  if (name.substr(name.size() - suffix, 2) != "_v") return name;
  return name.substr(0, name.size() - suffix);
}

bool cuda_api_name_matches(std::string_view traced, std::string_view named) {
  return cuda_api_base_name(traced) == cuda_api_base_name(named);
}

bool cuda_api_named(std::string_view traced, const std::vector<std::string>& names) {
  for (const auto& name : names)
    if (cuda_api_name_matches(traced, name)) return true;
  return false;
}

std::vector<std::string> cuda_api_exclusions(const std::vector<std::string>& include,
                                             const std::vector<std::string>& exclude,
                                             bool queries) {
  std::vector<std::string> excluded = exclude;
  if (queries) return excluded;
  for (const auto query : cuda_state_queries)
    if (!cuda_api_named(query, include)) excluded.emplace_back(query);
  return excluded;
}

}  // namespace rocprof::common
