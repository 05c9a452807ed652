#include "output_stage.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "record_spool.hpp"
#include "rocprof/common/placeholders.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace rocprof::tool {
namespace {

void make_directories(const std::string& path) {
  for (size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos == path.size() || path[pos] == '/') ::mkdir(path.substr(0, pos).c_str(), 0755);
  }
}

std::string parent_directory(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

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

std::string settings_to_json(const config::tool_settings& s) {
  nlohmann::json j;
  for (const auto& spec : config::schema()) {
    if (spec.domain) j[config::setting_name(spec)] = s.traces(spec.key);
  }
  j["counter_collection"] = s.counter_collection;
  j["counters"] = s.counters;
  j["output_path"] = s.output_path;
  j["output_file"] = s.output_file;
  j["output_format"] = s.output_formats;
  j["minimum_output_bytes"] = s.minimum_output_bytes;
  j["demangle"] = s.demangle;
  j["truncate"] = s.truncate;
  j["kernel_rename"] = s.kernel_rename;
  j["kernel_include_regex"] = s.kernel_include_regex;
  j["kernel_exclude_regex"] = s.kernel_exclude_regex;
  j["kernel_iteration_range"] = s.kernel_iteration_range;
  j["group_by_queue"] = s.group_by_queue;
  j["agent_index"] = s.agent_index;
  j["stats"] = s.stats;
  j["summary"] = s.summary;
  j["summary_per_domain"] = s.summary_per_domain;
  j["summary_groups"] = s.summary_groups;
  j["summary_output"] = s.summary_output;
  j["summary_units"] = s.summary_units;
  j["selected_regions"] = s.selected_regions;
  j["signal_handlers"] = s.signal_handlers;
  auto periods = nlohmann::json::array();
  for (const auto& p : s.collection_periods)
    periods.push_back({{"delay", p.delay_ns}, {"duration", p.duration_ns}, {"repeat", p.repeat}});
  j["collection_period"] = periods;
  j["pc_sampling_method"] = s.pc_sampling_method;
  j["pc_sampling_unit"] = s.pc_sampling_unit;
  j["pc_sampling_interval"] = s.pc_sampling_interval;
  j["benchmark_mode"] = s.benchmark_mode;
  return j.dump();
}

std::string write_period_log(const config::tool_settings& settings,
                             const std::vector<period_window>& windows) {
  const auto options = make_output_options(settings);
  const std::string path = options.path_for("collection_periods", "log");
  make_directories(parent_directory(path));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << format_period_log(windows);
  out.close();
  return out ? std::string() : "cannot write the collection periods log '" + path + "'";
}

output_report write_outputs(const config::tool_settings& settings,
                            const trace::trace_definitions& defs, record_spool& spool) {
  output_report report;
  if (!settings.benchmark_mode.empty()) {  // every benchmark mode suppresses all output
    report.skipped = true;
    return report;
  }
  const auto options = make_output_options(settings);
  const uint64_t records = spool.total_records();
  // rocprofv3 writes trace outputs only when some domain has data and the recorded bytes reach
  // --minimum-output-data; the config file is written regardless.
  const uint64_t bytes = records * sizeof(trace::api_record);  // approximate: records are similar
  const bool enough = records > 0 && bytes >= settings.minimum_output_bytes;

  std::vector<std::unique_ptr<trace::writer>> owned;
  std::vector<trace::writer*> writers;
  std::vector<std::string> names;  // parallel to owned
  for (const auto& name : requested_writers(settings)) {
    if (!enough && name != "config") {
      report.skipped = true;
      continue;
    }
    std::string error;
    auto made = trace::make_writer(name, options, &error);
    if (!made) {
      report.errors.push_back("output format '" + name + "': " + error);
      continue;
    }
    writers.push_back(made.get());
    owned.push_back(std::move(made));
    names.push_back(name);
  }
  if (writers.empty()) return report;

  make_directories(parent_directory(options.path_for("x", "y")));
  for (auto* out : writers)
    out->begin(defs);
  if (enough) spool.replay(writers);
  for (size_t i = 0; i < owned.size(); ++i) {
    std::string error = owned[i]->finish();
    if (error.empty())
      report.written.push_back(names[i]);
    else
      report.errors.push_back(error);
  }
  if (!spool.last_error().empty()) report.errors.push_back(spool.last_error());
  return report;
}

}  // namespace rocprof::tool
