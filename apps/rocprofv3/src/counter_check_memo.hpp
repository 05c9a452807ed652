// Counter checks that passed, kept across runs. The check before launch (counter_check.hpp)
// asks the backend for a chip's counters and for pass counts, and the CUDA backend answers
// through libnvperf_host, whose start-up alone takes ~0.3 s and ~110 MB: more than everything
// else a counting run adds when the kernel filter leaves every dispatch out. A check that
// passed is kept under a key naming everything its answer depends on (the backend's library
// files with their sizes and times, the GPUs or the named chip, the definition files' contents,
// each pass's counter options, this build), so the next run with the same key skips it. Failed
// checks are not kept: their message comes from the full check every time.
#pragma once

#include <string>
#include <vector>

#include "counter_targets.hpp"
#include "environment.hpp"
#include "passes.hpp"

namespace rocprof::cli {

// The key of a check, as text; empty when it cannot be made (the backend's source unknown, a
// definitions file unreadable): such a check is neither looked up nor kept.
std::string counter_check_key(const std::vector<pass>& passes,
                              const std::vector<counter_target>& targets,
                              const std::string& shipped_definitions,
                              const std::string& backend_source);

class counter_check_memo {
 public:
  // $ROCPROF_COUNTER_CHECK_CACHE: a path (it has a '/') is the folder; 0/off/false/no keeps
  // nothing; unset or on (1/on/true/yes): $XDG_CACHE_HOME/rocprofv3/counter-checks, else
  // $HOME/.cache/rocprofv3/counter-checks. Empty when nothing is kept. Any other value is a
  // usage_error naming the variable (before the application starts).
  static std::string folder_from(const environment& base);

  explicit counter_check_memo(std::string folder) : folder_(std::move(folder)) {}

  // True when a check with this key passed before; `warnings` gets what it warned about.
  bool passed(const std::string& key, std::vector<std::string>& warnings) const;
  // Keeps a check that passed. Best effort: a folder that cannot be written keeps nothing.
  void keep(const std::string& key, const std::vector<std::string>& warnings) const;

 private:
  std::string path_of(const std::string& key) const;
  std::string folder_;
};

}  // namespace rocprof::cli
