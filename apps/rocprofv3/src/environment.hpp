// The environment hand-off of one pass: the resolved configuration written into the variables
// the tool library reads (names from the schema), plus the injection variables.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "job.hpp"
#include "rocprof/config/domains.hpp"
#include "tool_paths.hpp"

namespace rocprof::cli {

using environment = std::map<std::string, std::string>;

environment current_environment();

// The value of `name` in `env`; empty when it is not set.
std::string environment_value(const environment& env, const std::string& name);

struct pass_environment_input {
  const job* config = nullptr;
  std::string output_path;  // the pass's ROCPROF_OUTPUT_PATH (sub-directory included)
  tool_paths paths;
  const environment* base = nullptr;  // the environment rocprofv3 was started with
};

struct pass_environment_result {
  environment changes;  // only what rocprofv3 sets or changes
  std::vector<std::string> warnings;
};

// Throws usage_error for values that cannot be handed over (unreadable -E file, bad period),
// and for any setting the tool would refuse when it reads this environment (the tool's own
// reader runs on it here, before launch).
pass_environment_result build_pass_environment(const pass_environment_input& input);

// The backends that record something this pass asks for (rows of the schema naming them).
std::vector<const config::backend_spec*> wanted_backends(const job& config);

}  // namespace rocprof::cli
