#include "dispatch_selection.hpp"

#include <stdexcept>
#include <utility>

namespace rocprof::tool {
namespace {

// The same rules and engine as the CLI's check (rocprof/common/safe_regex.hpp).
common::safe_regex compile(const std::string& pattern) {
  std::string error;
  auto compiled = common::safe_regex::compile(pattern, &error);
  if (!compiled) throw std::invalid_argument(common::quote_pattern(pattern) + ": " + error);
  return std::move(*compiled);
}

}  // namespace

dispatch_selector::dispatch_selector(const std::string& include_regex,
                                     const std::string& exclude_regex,
                                     config::iteration_range iterations, uint64_t group_interval)
    : include_(compile(include_regex.empty() ? std::string(".*") : include_regex)),
      exclude_(compile(exclude_regex.empty() ? std::string("$^") : exclude_regex)),
      has_exclude_(!exclude_regex.empty()),
      iterations_(std::move(iterations)),
      interval_(group_interval == 0 ? 1 : group_interval),
      unknown_targeted_(targeted("0")) {}

bool dispatch_selector::targeted(std::string_view name) const {
  if (!include_.search(name)) return false;
  return !(has_exclude_ && exclude_.search(name));
}

void dispatch_selector::name_kernel(uint64_t kernel_id, std::string_view formatted_name) {
  const bool yes = targeted(formatted_name);
  std::lock_guard<std::mutex> lock{mutex_};
  kernel_targeted_[kernel_id] = yes;
}

std::optional<size_t> dispatch_selector::select(uint64_t kernel_id, uint64_t agent_id,
                                                size_t groups) {
  std::lock_guard<std::mutex> lock{mutex_};
  const auto known = kernel_targeted_.find(kernel_id);
  const bool yes = known != kernel_targeted_.end() ? known->second : unknown_targeted_;
  if (!yes) return std::nullopt;
  const uint64_t iteration = ++kernel_iterations_[kernel_id];
  if (!iterations_.includes(iteration)) return std::nullopt;
  const uint64_t i = agent_dispatches_[agent_id]++;
  return groups <= 1 ? 0 : static_cast<size_t>((i / interval_) % groups);
}

}  // namespace rocprof::tool
