#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <utility>

#include "convert.hpp"
#include "rocprof/config/schema.hpp"

namespace rocprof::cli {
namespace {

using config::option_scope;
using config::value_type;

// CLI11 reads a list-option value written "[a,b]" as the list a, b; rocprofv3 passes such text
// through (--kernel-iteration-range "[1, [3-4]]"). A guard character in front keeps CLI11 from
// seeing the bracket; it is removed from the results again.
constexpr char k_guard = '\x1f';

std::string protect(const std::string& arg) {
  if (!arg.empty() && arg.front() == '[') return k_guard + arg;
  const size_t eq = arg.find("=[");
  if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
    return arg.substr(0, eq + 1) + k_guard + arg.substr(eq + 1);
  }
  return arg;
}

std::string unprotect(const std::string& value) {
  return !value.empty() && value.front() == k_guard ? value.substr(1) : value;
}

struct cli_parser {
  CLI::App app{
      "rocprofv3-compatible profiler: traces and counters for an application launched "
      "after '--'",
      "rocprofv3"};
  std::vector<std::pair<const config::option_spec*, CLI::Option*>> options;
  CLI::Option* version = nullptr;

  cli_parser() {
    app.set_help_flag("-h,--help", "Print this help message and exit");
    app.footer("Usage: rocprofv3 [options] -- <application> [application arguments]");
    const auto ignore = CLI::callback_t([](const CLI::results_t&) { return true; });
    for (const auto& spec : config::schema()) {
      if (spec.long_name.empty()) continue;  // input-file or environment-only rows
      std::string names;
      if (!spec.short_name.empty()) names += "-" + std::string(spec.short_name) + ",";
      names += "--" + std::string(spec.long_name);
      for (auto alias : config::words(spec.aliases))
        names += ",--" + std::string(alias);
      if (spec.key == "version") {
        version = app.add_flag(names)->description(std::string(spec.help));
        version->group(std::string(spec.group));
        continue;
      }
      std::string help(spec.help);
      if (!spec.choices.empty()) help += " {" + std::string(spec.choices) + "}";
      const auto def = spec.cli_default.empty() ? spec.default_value : spec.cli_default;
      if (spec.type != value_type::boolean && !def.empty()) {
        help += " (default " + std::string(def) + ")";
      }
      if (!spec.env.empty()) help += " [env " + std::string(spec.env) + "]";
      CLI::Option* opt = app.add_option(names, ignore, help);
      opt->type_name(std::string(spec.metavar));
      opt->group(spec.hidden ? std::string() : std::string(spec.group));
      switch (spec.type) {
        case value_type::boolean:
          // nargs='?': a bare flag, "--x=no" or "--x no".
          opt->expected(0, 1);
          break;
        case value_type::string_list:
        case value_type::choice_list:
        case value_type::group_list:
          opt->expected(spec.zero_or_more ? 0 : 1, CLI::detail::expected_max_vector_size);
          opt->allow_extra_args(true);
          opt->inject_separator(true);  // keeps the boundary between repeated flags (--pmc)
          break;
        default:
          opt->expected(1);
          break;
      }
      opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      options.emplace_back(&spec, opt);
    }
  }
};

// Results of a repeated list option, split into one group per occurrence.
std::vector<std::vector<std::string>> occurrences(const CLI::Option& opt) {
  std::vector<std::vector<std::string>> groups(1);
  for (const auto& result : opt.results()) {
    if (result.empty()) {
      groups.emplace_back();
    } else {
      groups.back().push_back(unprotect(result));
    }
  }
  return groups;
}

}  // namespace

std::string help_text() {
  cli_parser parser;
  return parser.app.help();
}

command_line parse_command_line(const std::vector<std::string>& args) {
  command_line out;
  // The application starts after the first literal "--"; CLI11 never sees it or what follows.
  const auto separator = std::find(args.begin(), args.end(), "--");
  std::vector<std::string> ours;
  for (auto it = args.begin(); it != separator; ++it)
    ours.push_back(protect(*it));
  if (separator != args.end()) out.app.assign(separator + 1, args.end());

  cli_parser parser;
  std::reverse(ours.begin(), ours.end());  // CLI11 takes the arguments in reverse order
  try {
    parser.app.parse(ours);
  } catch (const CLI::CallForHelp&) {
    out.show_help = true;
    return out;
  } catch (const CLI::ParseError& error) {
    throw usage_error(error.what());
  }
  out.show_version = parser.version->count() > 0;

  for (const auto& [spec, opt] : parser.options) {
    if (opt->count() == 0) continue;
    const std::string key(spec->key);
    auto groups = occurrences(*opt);
    if (spec->type == value_type::boolean) {
      // The last occurrence wins; a bare flag (no result) means true.
      const auto& results = opt->results();
      const std::vector<std::string> last =
          results.empty() || results.back().empty()
              ? std::vector<std::string>{}
              : std::vector<std::string>{unprotect(results.back())};
      out.options.values[key] = from_words(*spec, last);
    } else if (key == "pmc") {
      for (auto& group : groups) {
        if (!group.empty()) out.pmc_passes.push_back(std::move(group));
      }
    } else if (spec->type == value_type::string_list || spec->type == value_type::choice_list) {
      // A repeated list option (other than --pmc): the last occurrence wins, as in argparse.
      out.options.values[key] = from_words(*spec, groups.back());
    } else {
      out.options.values[key] = from_words(*spec, {unprotect(opt->results().back())});
    }
  }
  return out;
}

}  // namespace rocprof::cli
