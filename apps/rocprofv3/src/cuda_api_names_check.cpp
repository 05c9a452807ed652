#include "cuda_api_names_check.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include "rocprof/common/cuda_api_names.hpp"
#include "rocprof/config/values.hpp"
#include "rocprof/counters/suggest.hpp"

namespace rocprof::cli {
namespace {

// Sorted, without version suffixes (CMakeLists.txt writes it).
constexpr std::string_view known_names[] = {
#include "cuda_api_names.inc"
    ""};  // so that a build without CUPTI headers still has an array

}  // namespace

bool cuda_api_names_known() {
  return std::size(known_names) > 1;
}

std::string cuda_api_name_problem(std::string_view name) {
  const auto first = std::begin(known_names);
  const auto last = std::end(known_names) - 1;  // the trailing ""
  if (first == last) return {};
  const std::string_view base = common::cuda_api_base_name(name);
  if (std::binary_search(first, last, base)) return {};
  const std::vector<std::string_view> candidates(first, last);
  const auto closest = counters::closest_names(base, candidates);
  std::string out = "unknown CUDA API function '" + std::string{name} + "'";
  if (closest.empty()) return out + " (no similar CUDA runtime or driver function)";
  return out + "; closest names: " + config::join(closest, ", ");
}

}  // namespace rocprof::cli
