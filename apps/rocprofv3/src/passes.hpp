// From the command line and an optional input file to the list of passes that are launched one
// after another: merging, aggregate expansion and validation.
#pragma once

#include <string>
#include <vector>

#include "command_line.hpp"
#include "job.hpp"
#include "rocprof/config/schema.hpp"

namespace rocprof::cli {

struct pass {
  job config;
  std::string sub_directory;  // "" (single run), "pass_N" or "pmc_N"
};

// Merges one input-file job under the command line: a key set on one side only is taken; set on
// both with equal values is fine; set on both with different values is a usage_error.
job merge_job(const job& cli, const job& file_job);

// rocprofv3's aggregate expansion, in its exact order, each step setting only unset keys; the
// steps come from the schema's domain table.
void expand_aggregates(job& config);

// The option of `spec` is on in `config`: a true flag, or any value of another type.
bool option_on(const job& config, const config::option_spec& spec);

// Checks one resolved pass (value_checks.hpp: regexes, ranges, counters, periods, placeholders;
// PC sampling completeness, exclusive options). `app` is the application's command line.
void validate_pass(const job& config, const std::string& label,
                   const std::vector<std::string>& app = {});

// Every pass of this run, merged, expanded and validated. Throws usage_error.
std::vector<pass> build_passes(const command_line& line);

}  // namespace rocprof::cli
