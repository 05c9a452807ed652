#include "value_checks.hpp"

#include "cuda_api_names_check.hpp"
#include "rocprof/common/cuda_api_names.hpp"
#include "rocprof/common/placeholders.hpp"
#include "rocprof/common/safe_regex.hpp"
#include "rocprof/config/collection_period.hpp"
#include "rocprof/config/iteration_range.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::cli {
namespace {

void check_regex(const std::string& pattern, const std::string& where) {
  if (auto problem = common::regex_problem(pattern); !problem.empty()) {
    throw usage_error(where + ": invalid regular expression " + common::quote_pattern(pattern) +
                      ": " + problem);
  }
}

// Each name as the tool will split it from the "pmc: ..." line the CLI writes.
void check_counters(const std::vector<std::string>& values, const std::string& where) {
  for (const auto& value : values) {
    for (const auto& name : config::parse_pmc_line(value)) {
      if (auto problem = config::counter_name_problem(name); !problem.empty()) {
        throw usage_error(where + ": " + problem);
      }
    }
  }
}

}  // namespace

std::string where_of(const job& config, const std::string& key) {
  if (const auto it = config.where.find(key); it != config.where.end()) return it->second;
  const auto& spec = config::option(key);
  return spec.long_name.empty() ? "key '" + key + "'" : "argument --" + std::string(spec.long_name);
}

void check_pass_values(const job& config, const std::string& prefix,
                       const std::vector<std::string>& app) {
  const auto where = [&](const std::string& key) { return prefix + where_of(config, key); };
  for (const char* key : {"kernel_include_regex", "kernel_exclude_regex"}) {
    if (auto pattern = config.text(key)) check_regex(*pattern, where(key));
  }
  for (const auto& pattern : config.list("summary_groups"))
    check_regex(pattern, where("summary_groups"));

  if (config.has("kernel_iteration_range")) {
    const auto& spec = config::option("kernel_iteration_range");
    const std::string text = config::join(config.list("kernel_iteration_range"), spec.separator);
    const auto range = config::parse_iteration_range(text);
    if (!range.error.empty())
      throw usage_error(where("kernel_iteration_range") + ": " + range.error);
  }

  for (const char* key : {"pmc", "pmc_groups"})
    check_counters(config.list(key), where(key));

  for (const char* key : {"cuda_api_include", "cuda_api_exclude"}) {
    for (const auto& item : config.list(key)) {
      for (const auto& name : common::split_cuda_api_names(item)) {
        if (auto problem = cuda_api_name_problem(name); !problem.empty())
          throw usage_error(where(key) + ": " + problem);
      }
    }
  }

  const std::string unit = config.text("collection_period_unit").value_or("sec");
  for (const auto& period : config.list("collection_period")) {
    const auto parsed = config::parse_period_in_unit(period, unit);
    if (!parsed.period) throw usage_error(where("collection_period") + ": " + parsed.error);
  }

  auto context = common::placeholder_context::for_current_process();
  context.argv = app;
  for (const char* key : {"output_directory", "output_file"}) {
    if (auto text = config.text(key)) {
      if (auto problem = common::placeholder_problem(*text, context); !problem.empty()) {
        throw usage_error(where(key) + ": " + problem);
      }
    }
  }
}

}  // namespace rocprof::cli
