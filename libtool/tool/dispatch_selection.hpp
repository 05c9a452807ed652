// Which kernel dispatches get counters, and which counter group, as rocprofv3's tool decides
// (rocprofv3-facts §1.5):
//   * kernel filter: a kernel is targeted when its formatted name (demangled / truncated per -M
//     / -T) contains a match of --kernel-include-regex (default ".*") and none of
//     --kernel-exclude-regex; decided once per kernel id, when its symbol is registered. A
//     dispatch of a kernel whose symbol is unknown is treated as kernel "0";
//   * iteration range: the targeted dispatches of each kernel are numbered 1, 2, ... per kernel
//     id; only the numbers in --kernel-iteration-range are counted (empty: all);
//   * groups (pmc_groups multiplexing): per agent, the counted dispatches are numbered i = 0,
//     1, ...; dispatch i collects group (i / interval) % groups.
// Dispatches that are not selected run untouched. Thread-safe (one mutex; the dispatch callback
// of every launch passes here, but a lookup is a hash probe under an uncontended lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "rocprof/common/safe_regex.hpp"
#include "rocprof/config/iteration_range.hpp"

namespace rocprof::tool {

class dispatch_selector {
 public:
  // Throws std::invalid_argument for a regex safe_regex refuses (the CLI checked them already).
  dispatch_selector(const std::string& include_regex, const std::string& exclude_regex,
                    config::iteration_range iterations, uint64_t group_interval);

  // A kernel symbol's formatted name, at its registration.
  void name_kernel(uint64_t kernel_id, std::string_view formatted_name);

  // Whether this dispatch is counted; if so, which of `groups` (>= 1) groups it collects.
  std::optional<size_t> select(uint64_t kernel_id, uint64_t agent_id, size_t groups);

 private:
  bool targeted(std::string_view name) const;

  common::safe_regex include_;
  common::safe_regex exclude_;
  bool has_exclude_;
  config::iteration_range iterations_;
  uint64_t interval_;
  bool unknown_targeted_;  // kernel "0"

  std::mutex mutex_;
  std::unordered_map<uint64_t, bool> kernel_targeted_;
  std::unordered_map<uint64_t, uint64_t> kernel_iterations_;  // targeted dispatches so far
  std::unordered_map<uint64_t, uint64_t> agent_dispatches_;   // counted dispatches so far
};

}  // namespace rocprof::tool
