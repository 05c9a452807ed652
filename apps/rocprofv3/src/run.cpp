#include "run.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

#include "command_line.hpp"
#include "counter_setup.hpp"
#include "environment.hpp"
#include "launcher.hpp"
#include "list_avail.hpp"
#include "mpi_ranks.hpp"
#include "output_directory.hpp"
#include "passes.hpp"
#include "recovery.hpp"
#include "pc_sampling_check.hpp"
#include "rocprof/common/version.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/schema.hpp"
#include "tool_paths.hpp"

namespace rocprof::cli {
namespace {

bool collects_something(const job& config) {
  for (const auto& spec : config::schema()) {
    if (config::collects(spec) && option_on(config, spec)) return true;
  }
  return false;
}

bool wants_summary(const job& config) {
  for (const char* key : {"stats", "summary", "summary_per_domain"}) {
    if (config.flag(key)) return true;
  }
  return config.has("summary_groups") || config.has("summary_output_file") ||
         config.has("summary_units");
}

void print_version(std::ostream& out) {
  const auto& info = common::get_build_info();
  const std::string rocm_version =
      std::string(common::implemented_rocm_version) + " (the rocprofv3 interface implemented)";
  const std::pair<const char*, std::string_view> rows[] = {
      {"version", info.version},
      {"git_revision", info.git_revision},
      {"library_arch", info.library_arch},
      {"system_name", info.system_name},
      {"system_processor", info.system_processor},
      {"system_version", info.system_version},
      {"compiler_id", info.compiler_id},
      {"compiler_version", info.compiler_version},
      {"rocm_version", rocm_version}};
  for (const auto& [key, value] : rows) {
    char line[256];
    std::snprintf(line, sizeof(line), "%16s: %.*s\n", key, static_cast<int>(value.size()),
                  value.data());
    out << line;
  }
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", '" : "'") + items[i] + "'";
  return out + "]";
}

struct prepared_pass {
  const pass* source = nullptr;
  environment full;     // what the application gets
  environment changes;  // what rocprofv3 set
};

}  // namespace

int run_rocprofv3(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    const command_line line = parse_command_line(args);
    if (line.show_help) {
      out << help_text();
      return 0;
    }
    if (line.show_version) {
      print_version(out);
      return 0;
    }
    std::vector<pass> passes = build_passes(line);
    const job& cli = line.options;
    const bool echo = cli.flag("echo");
    const environment base = current_environment();
    if (cli.flag("list_avail")) {
      // --rocm-root moves the libraries, the backends among them, as it does for a run.
      const std::string rocm_root = cli.text("rocm_root").value_or("");
      const tool_paths listing_paths = find_tool_paths(rocm_root);
      print_list_avail(out, "/proc/cpuinfo",
                       rocm_root.empty() ? "" : listing_paths.backend_directory(),
                       [&](std::ostream& stream, const std::vector<rocprofiler_agent_v0_t>& gpus) {
                         print_available_counters(stream, gpus, cli, listing_paths, base);
                       });
      if (line.app.empty()) return 0;
    }
    if (line.app.empty() && !echo) {
      throw usage_error("no application provided: usage is rocprofv3 [options] -- <application>");
    }

    const mpi_selection mpi = select_mpi_rank(cli, base);
    if (!mpi.profiled && !echo) return launch(line.app, base).exit_status;  // unselected rank
    const tool_paths paths = find_tool_paths(cli.text("rocm_root").value_or(""));
    if (!is_file(paths.tool())) {
      throw usage_error("tool library not found at " + paths.tool());
    }
    if (!line.app.empty()) resolve_application(line.app.front(), base);

    // Everything that can fail is resolved for every pass before the first one starts.
    std::vector<prepared_pass> prepared;
    std::set<std::string> warnings;
    if (passes_collect_counters(passes) && counter_check_enabled(base)) {
      auto checked = check_run_counters(std::move(passes), cli, paths, base);
      passes = std::move(checked.passes);
      warnings.insert(checked.warnings.begin(), checked.warnings.end());
    }
    std::vector<std::string> amd_only;
    std::optional<gpu_agent_list> pc_agents;  // asked once, for the first pass that samples
    for (const auto& current : passes) {
      const std::string method = current.config.text("pc_sampling_method").value_or("none");
      if (method != "none") {
        if (!pc_agents) pc_agents = query_gpu_agents(paths.core(), paths.backend_directory());
        const std::string error = pc_sampling_error(
            *pc_agents, method, current.config.text("pc_sampling_unit").value_or("none"),
            static_cast<uint64_t>(current.config.number("pc_sampling_interval").value_or(0)));
        if (!error.empty()) throw usage_error(error);
      }
      if (!collects_something(current.config)) {
        if (wants_summary(current.config)) {
          throw usage_error("statistics or summary options need a tracing or counter option");
        }
        warnings.insert("no tracing, counter, thread trace or PC sampling option is enabled");
      }
      pass_environment_input input;
      input.config = &current.config;
      // Each pass has its own output directory: an input-file job may name one (a -d beside it
      // must agree, as for every merged key).
      const std::string root = output_root(current.config, base);
      input.output_path = current.sub_directory.empty() ? root : root + "/" + current.sub_directory;
      input.paths = paths;
      input.base = &base;
      ensure_output_directory(input.output_path);
      auto result = build_pass_environment(input);
      warnings.insert(result.warnings.begin(), result.warnings.end());
      for (const auto& spec : config::schema()) {
        if (!spec.amd_only) continue;
        const std::string name = "--" + std::string(spec.long_name);
        if (option_on(current.config, spec) &&
            std::find(amd_only.begin(), amd_only.end(), name) == amd_only.end()) {
          amd_only.push_back(name);
        }
      }
      result.changes.insert(mpi.exports.begin(), mpi.exports.end());
      prepared_pass ready{&current, base, result.changes};
      for (const auto& [name, value] : result.changes)
        ready.full[name] = value;
      prepared.push_back(std::move(ready));
    }
    if (!amd_only.empty()) {
      std::string names;
      for (const auto& name : amd_only)
        names += (names.empty() ? "" : ", ") + name;
      err << "rocprofv3: warning: this build has no AMD (ROCm) backend; accepted but not "
             "collected: "
          << names << "\n";
    }
    for (const auto& warning : warnings)
      err << "rocprofv3: warning: " << warning << "\n";

    int status = 0;
    // For the whole run: signals are relayed to the application while it runs, and do not
    // interrupt rocprofv3 while it writes recovered outputs.
    const signal_relay relay;
    recovery_registry registry;
    if (!echo) {
      std::string error;
      if (!registry.create(&error)) err << "rocprofv3: warning: " << error << "\n";
    }
    for (auto& ready : prepared) {
      const std::string log_level = ready.source->config.text("log_level").value_or("");
      const std::string label = ready.source->sub_directory.empty()
                                    ? std::string()
                                    : " (" + ready.source->sub_directory + ")";
      if (log_level == "config" || log_level == "info" || log_level == "trace") {
        err << "- rocprofv3 configuration" << label << ":\n";
        for (const auto& [key, value] : ready.source->config.values) {
          err << "    " << key << " = " << to_string(value) << "\n";
        }
      }
      if (log_level == "env" || log_level == "info" || log_level == "trace" || echo) {
        std::ostream& stream = echo ? out : err;
        stream << "- rocprofv3 environment" << label << ":\n";
        for (const auto& [name, value] : ready.changes) {
          const auto was = base.find(name);
          if (was == base.end() || was->second != value)
            stream << "    " << name << "=" << value << "\n";
        }
      }
      if (echo) {
        out << "command: " << quoted_list(line.app) << "\n";
        continue;
      }
      // The tool registers each process's record journal with us, so that the outputs of a
      // process that dies without writing them are written here. Not with
      // --disable-signal-handlers: the user keeps the profiler out of how the application ends.
      const bool recover =
          !registry.path().empty() && !ready.source->config.flag("disable_signal_handlers");
      if (recover)
        ready.full[std::string(config::option("recovery_registry").env)] = registry.path();
      const launch_result result = launch(line.app, ready.full);
      if (result.exit_status != 0) status = result.exit_status;
      if (recover && relay.stopped_at_once())
        registry.discard(err);
      else if (recover)
        registry.recover(err, result.pid, result.wait_status);
      if (result.interrupted) break;  // the user stopped the run: no further passes
    }
    return status;
  } catch (const usage_error& error) {
    err << "rocprofv3: error: " << error.what() << "\n";
    return 1;
  } catch (const std::exception& error) {
    // A bug of ours, not of the user: still one line and nothing launched.
    err << "rocprofv3: error: internal error: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace rocprof::cli
