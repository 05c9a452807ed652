#include "output_stage.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "record_spool.hpp"
#include "rocprof/common/placeholders.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/trace/staged_file.hpp"

namespace rocprof::tool {
namespace {

trace::agent_index_mode agent_index_from(const std::string& text) {
  if (text == "absolute") return trace::agent_index_mode::absolute;
  if (text == "type-relative" || text == "type_relative")
    return trace::agent_index_mode::type_relative;
  return trace::agent_index_mode::relative;
}

trace::summary_unit summary_unit_from(const std::string& text) {
  if (text == "sec") return trace::summary_unit::sec;
  if (text == "msec") return trace::summary_unit::msec;
  if (text == "usec") return trace::summary_unit::usec;
  return trace::summary_unit::nsec;
}

}  // namespace

std::vector<std::string> requested_writers(const config::tool_settings& settings) {
  std::vector<std::string> names;
  if (settings.output_config) names.emplace_back("config");
  // A format's writer is named by its word in the schema (--output-format's choices).
  const config::option_spec& formats = config::option("output_format");
  for (const auto& format : settings.output_formats) {
    const auto name = config::find_choice(formats, format);
    if (name && std::find(names.begin(), names.end(), *name) == names.end())
      names.emplace_back(*name);
  }
  if (settings.summary || settings.summary_per_domain || !settings.summary_groups.empty())
    names.emplace_back("summary");
  // PC sampling's hot-spot report (a CSV, and the terminal form with a summary option).
  if (!settings.pc_sampling_method.empty() && settings.pc_sampling_method != "none")
    names.emplace_back("pc_hotspots");
  return names;
}

trace::output_options make_output_options(const config::tool_settings& settings) {
  const auto context = common::placeholder_context::for_current_process();
  trace::output_options options;
  // The settings hold the schema's defaults where the variables were unset or empty.
  options.output_directory = common::expand_placeholders(settings.output_path, context);
  options.file_prefix = common::expand_placeholders(settings.output_file, context);
  options.agent_index = agent_index_from(settings.agent_index);
  options.group_by_queue = settings.group_by_queue;
  options.kernel_rename = settings.kernel_rename;
  options.demangle = settings.demangle;
  options.truncate = settings.truncate;
  options.stats = settings.stats;
  options.summary = settings.summary;
  options.summary_per_domain = settings.summary_per_domain;
  options.summary_groups = settings.summary_groups;
  if (!settings.summary_output.empty()) options.summary_output = settings.summary_output;
  options.summary_units = summary_unit_from(settings.summary_units);
  return options;
}

trace::output_plan make_output_plan(const config::tool_settings& settings) {
  trace::output_plan plan;
  plan.options = make_output_options(settings);
  plan.minimum_output_bytes = settings.minimum_output_bytes;
  if (settings.benchmark_mode.empty()) plan.writers = requested_writers(settings);
  return plan;
}

std::string write_period_log(const trace::output_options& options,
                             const std::vector<period_window>& windows) {
  const std::string path = options.path_for("collection_periods", "log");
  trace::staged_file file;
  if (!file.create(path)) return "cannot write the collection periods log: " + file.error();
  const std::string text = format_period_log(windows);
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(file.fd(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return "cannot write the collection periods log '" + path + "'";
    done += static_cast<size_t>(n);
  }
  const std::string error = file.commit();
  return error.empty() ? std::string() : "cannot write the collection periods log: " + error;
}

}  // namespace rocprof::tool
