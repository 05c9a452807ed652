#include "options.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <ostream>

#include "rocprof/common/version.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::rocpd_cli {
namespace {

using vt = config::value_type;

constexpr std::string_view k_required = "Required arguments";
constexpr std::string_view k_io = "I/O options";
constexpr std::string_view k_naming = "Kernel naming options";
constexpr std::string_view k_generic = "Generic options";
constexpr std::string_view k_perfetto = "Perfetto-specific options";
constexpr std::string_view k_window = "Time window options";
constexpr std::string_view k_summary = "Summary options";
constexpr std::string_view k_query = "Query options";
constexpr std::string_view k_package = "Package options";

struct row {
  rocpd_option o;
  row(std::string_view commands, std::string_view key, std::string_view long_name) {
    o.commands = commands;
    o.spec.key = key;
    o.spec.long_name = long_name;
  }
  row& s(std::string_view v) { return o.spec.s(v), *this; }
  row& of(vt v) { return o.spec.of(v), *this; }
  row& among(std::string_view v) { return o.spec.among(v), *this; }
  row& def(std::string_view v) { return o.spec.def(v), *this; }
  row& env(std::string_view v) { return o.spec.env = v, *this; }
  row& in(std::string_view v) { return o.spec.in(v), *this; }
  row& meta(std::string_view v) { return o.spec.meta(v), *this; }
  row& says(std::string_view v) { return o.spec.says(v), *this; }
  row& required() { return o.required = true, *this; }
  operator rocpd_option() const { return o; }  // NOLINT: the table reads as one row per line
};

constexpr std::string_view all = "convert summary query merge package";
constexpr std::string_view windowed = "convert summary query";

std::vector<rocpd_option> build_table() {
  return {
      row(all, "input", "input")
          .s("i")
          .of(vt::string_list)
          .in(k_required)
          .meta("DB")
          .says("Input database(s), separated by spaces")
          .required(),
      row("convert", "output_format", "output-format")
          .s("f")
          .of(vt::choice_list)
          .among("csv pftrace otf2 json")
          .in(k_required)
          .meta("FORMAT")
          .says("Output formats, several allowed ('perfetto' is 'pftrace')")
          .required(),
      row("query", "query", "query")
          .of(vt::string)
          .in(k_required)
          .meta("SQL")
          .says("The SQL query to run over the inputs' views")
          .required(),
      row("query", "script", "script")
          .of(vt::string)
          .in(k_query)
          .meta("FILE")
          .says("SQL file run before the query (views, temporary tables)"),
      row("summary", "format", "format")
          .s("f")
          .of(vt::choice)
          .among("console csv html json md")
          .def("console")
          .in(k_io)
          .meta("FORMAT")
          .says("Format of the summary tables"),
      row("query", "format", "format")
          .of(vt::choice)
          .among("console csv html json md")
          .def("console")
          .in(k_io)
          .meta("FORMAT")
          .says("Format of the query's result"),
      row("convert query merge", "output_file", "output-file")
          .s("o")
          .of(vt::string)
          .def("out")
          .env("ROCPD_OUTPUT_NAME")
          .in(k_io)
          .meta("NAME")
          .says("Base name of the output files (merge: of the database); placeholders allowed"),
      row("summary", "output_file", "output-file")
          .s("o")
          .of(vt::string)
          .env("ROCPD_OUTPUT_NAME")
          .in(k_io)
          .meta("NAME")
          .says("Prefix of the summary files"),
      row(all, "output_path", "output-path")
          .s("d")
          .of(vt::string)
          .def("./rocpd-output-data")
          .env("ROCPD_OUTPUT_PATH")
          .in(k_io)
          .meta("PATH")
          .says("Output directory; placeholders allowed"),
      row("convert query", "kernel_rename", "kernel-rename")
          .in(k_naming)
          .says("Name kernels by their enclosing ROCTx/NVTX range"),
      row("convert", "agent_index_value", "agent-index-value")
          .of(vt::choice)
          .among("absolute relative type-relative")
          .def("relative")
          .in(k_generic)
          .meta("KIND")
          .says("How agents are numbered in the outputs"),
      row("convert", "group_by_queue", "group-by-queue")
          .in(k_perfetto)
          .says("Perfetto: kernels and copies on queue tracks instead of stream tracks"),
      row("convert", "perfetto_backend", "perfetto-backend")
          .of(vt::choice)
          .among("inprocess system")
          .def("inprocess")
          .in(k_perfetto)
          .meta("BACKEND")
          .says("Accepted for compatibility (the trace is always written in process)"),
      row("convert", "perfetto_buffer_fill_policy", "perfetto-buffer-fill-policy")
          .of(vt::choice)
          .among("discard ring_buffer")
          .def("discard")
          .in(k_perfetto)
          .meta("POLICY")
          .says("Accepted for compatibility (no record is dropped)"),
      row("convert", "perfetto_buffer_size", "perfetto-buffer-size")
          .of(vt::integer)
          .def("1048576")
          .in(k_perfetto)
          .meta("KB")
          .says("Accepted for compatibility (the writer streams)"),
      row("convert", "perfetto_shmem_size_hint", "perfetto-shmem-size-hint")
          .of(vt::integer)
          .def("64")
          .in(k_perfetto)
          .meta("KB")
          .says("Accepted for compatibility"),
      row(windowed, "start", "start")
          .of(vt::string)
          .in(k_window)
          .meta("TIME")
          .says("Window start: a percentage of the trace's span ('25%') or nanoseconds"),
      row(windowed, "start_marker", "start-marker")
          .of(vt::string)
          .in(k_window)
          .meta("NAME")
          .says("Window start: the start of the marker range with this message"),
      row(windowed, "end", "end")
          .of(vt::string)
          .in(k_window)
          .meta("TIME")
          .says("Window end: a percentage of the trace's span ('75%') or nanoseconds"),
      row(windowed, "end_marker", "end-marker")
          .of(vt::string)
          .in(k_window)
          .meta("NAME")
          .says("Window end: the start of the marker range with this message"),
      row(windowed, "inclusive", "inclusive")
          .def("true")
          .in(k_window)
          .meta("BOOL")
          .says("True: keep records lying entirely inside the window; false: keep every record "
                "overlapping it"),
      row("summary", "domain_summary", "domain-summary")
          .in(k_summary)
          .says("Also one table of every domain's totals"),
      row("summary", "summary_by_rank", "summary-by-rank")
          .in(k_summary)
          .says("Also every table per process (MPI rank), with ProcessID and Hostname columns"),
      row("summary", "region_categories", "region-categories")
          .of(vt::string_list)
          .in(k_summary)
          .meta("CAT")
          .says("Region categories to summarise (HIP HSA CUDA RCCL ROCDECODE ROCJPEG MARKER, or "
                "NONE; default: every category of the inputs)"),
      row("package", "copy", "copy")
          .in(k_package)
          .says("Copy the databases into the output directory beside index.yaml"),
      row("package", "consolidate", "consolidate")
          .in(k_package)
          .says("Merge the databases into one (<output-path>/<output-file>.db) and index it"),
  };
}

std::string env_or(std::string_view name, std::string_view fallback) {
  if (!name.empty()) {
    const char* v = std::getenv(std::string{name}.c_str());
    if (v != nullptr && *v != '\0') return v;
  }
  return std::string{fallback};
}

}  // namespace

const std::vector<rocpd_command>& rocpd_commands() {
  static const std::vector<rocpd_command> commands = {
      {"convert", "Convert databases to CSV, Perfetto, OTF2 or JSON files"},
      {"summary", "Summary tables of the databases (per domain, per rank)"},
      {"query", "Run an SQL query over the databases' views"},
      {"merge", "Merge databases (e.g. MPI ranks) into one, aligned on wall-clock time"},
      {"package", "Index databases in an index.yaml (and copy or consolidate them)"},
  };
  return commands;
}

const std::vector<rocpd_option>& rocpd_options() {
  static const std::vector<rocpd_option> table = build_table();
  return table;
}

bool option_in(const rocpd_option& option, std::string_view command) {
  for (auto c : config::words(option.commands))
    if (c == command) return true;
  return false;
}

std::string rocpd_args::text(const std::string& key) const {
  const auto it = values.find(key);
  return it == values.end() || it->second.empty() ? std::string{} : it->second.back();
}

const std::vector<std::string>& rocpd_args::list(const std::string& key) const {
  static const std::vector<std::string> none;
  const auto it = values.find(key);
  return it == values.end() ? none : it->second;
}

bool rocpd_args::flag(const std::string& key) const {
  return text(key) == "1";
}

std::optional<rocpd_args> parse_rocpd_args(const std::vector<std::string>& args,
                                           std::ostream& out) {
  CLI::App app{
      "rocpd: post-processing of rocpd databases (convert, summary, query, merge, "
      "package)",
      "rocpd"};
  app.set_help_flag("-h,--help", "Print this help message and exit");
  app.require_subcommand(0, 1);
  auto* version =
      app.add_flag("-v,--version")->description("Print the version of this build and exit");
  // Values are read back from the options' results; the callback only accepts them.
  const auto accept = CLI::callback_t([](const CLI::results_t&) { return true; });
  struct bound {
    const rocpd_option* option;
    CLI::Option* cli;
  };
  std::map<std::string, std::vector<bound>> per_command;
  std::map<std::string, CLI::App*> subcommands;
  for (const auto& command : rocpd_commands()) {
    auto* sub = app.add_subcommand(std::string{command.name}, std::string{command.help});
    subcommands[std::string{command.name}] = sub;
    for (const auto& option : rocpd_options()) {
      if (!option_in(option, command.name)) continue;
      const auto& spec = option.spec;
      std::string names;
      if (!spec.short_name.empty()) names += "-" + std::string{spec.short_name} + ",";
      names += "--" + std::string{spec.long_name};
      std::string help{spec.help};
      if (!spec.choices.empty()) help += " {" + std::string{spec.choices} + "}";
      if (!spec.default_value.empty()) help += " (default " + std::string{spec.default_value} + ")";
      if (!spec.env.empty()) help += " [env " + std::string{spec.env} + "]";
      CLI::Option* o = sub->add_option(names, accept, help);
      o->type_name(std::string{spec.metavar});
      o->group(std::string{spec.group});
      switch (spec.type) {
        case vt::boolean:
          o->expected(0, 1);
          break;
        case vt::string_list:
        case vt::choice_list:
          o->expected(1, CLI::detail::expected_max_vector_size);
          o->allow_extra_args(true);
          break;
        default:
          o->expected(1);
          break;
      }
      o->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      if (option.required) o->required();
      per_command[std::string{command.name}].push_back({&option, o});
    }
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    const auto* selected = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
    out << (selected ? selected->help() : app.help());
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    throw usage_error(e.what());
  }
  if (version->count() > 0) {
    out << "rocpd " << common::get_build_info().version << "\n";
    return std::nullopt;
  }
  if (app.get_subcommands().empty()) {
    out << app.help();
    return std::nullopt;
  }
  rocpd_args parsed;
  parsed.command = app.get_subcommands().front()->get_name();
  for (const auto& [option, cli] : per_command[parsed.command]) {
    const auto& spec = option->spec;
    const std::string key{spec.key};
    std::vector<std::string> values;
    for (const auto& r : cli->results())
      values.push_back(r);
    if (cli->count() > 0) parsed.explicit_[key] = true;
    if (spec.type == vt::boolean) {
      bool on = false;
      if (cli->count() > 0) {
        on = true;
        if (!values.empty() && !values.back().empty()) {  // a bare flag gives "" or nothing
          const auto word = config::parse_bool_word(values.back());
          if (!word)
            throw usage_error("--" + std::string{spec.long_name} + ": invalid boolean value '" +
                              values.back() + "'");
          on = *word;
        }
      } else {
        on = config::parse_bool_word(spec.default_value).value_or(false);
      }
      parsed.values[key] = {on ? "1" : "0"};
      continue;
    }
    if (cli->count() == 0) {
      const std::string def = env_or(spec.env, spec.default_value);
      if (!def.empty()) parsed.values[key] = {def};
      continue;
    }
    if (spec.type == vt::choice || spec.type == vt::choice_list) {
      for (auto& v : values) {
        if (spec.key == "output_format" && (v == "perfetto" || v == "PERFETTO")) v = "pftrace";
        const auto choice = config::find_choice(spec, v);
        if (!choice)
          throw usage_error("--" + std::string{spec.long_name} + ": invalid choice '" + v +
                            "' (choose from " + std::string{spec.choices} + ")");
        v = std::string{*choice};
      }
    }
    if (spec.type == vt::integer)
      for (const auto& v : values)
        if (!config::parse_integer(v))
          throw usage_error("--" + std::string{spec.long_name} + ": invalid integer '" + v + "'");
    parsed.values[key] = values;
  }
  if (parsed.given("start") && parsed.given("start_marker"))
    throw usage_error("--start and --start-marker exclude each other");
  if (parsed.given("end") && parsed.given("end_marker"))
    throw usage_error("--end and --end-marker exclude each other");
  return parsed;
}

}  // namespace rocprof::rocpd_cli
