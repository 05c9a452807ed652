// The rocpd command line: one table of options (AMD's rocpd subcommands, names, defaults and
// environment defaults, in the style of rocprofv3's configuration schema), from which the CLI11
// parser, the --help text and docs/cli.md's rocpd section are made.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rocprof/config/schema.hpp"

namespace rocprof::rocpd_cli {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One option: the subcommands it belongs to (space separated) and its schema row (key, names,
// type, choices, default, environment default, help group, metavar, help text).
struct rocpd_option {
  std::string_view commands;
  config::option_spec spec;
  bool required = false;
};

struct rocpd_command {
  std::string_view name, help;
};

const std::vector<rocpd_command>& rocpd_commands();
const std::vector<rocpd_option>& rocpd_options();
bool option_in(const rocpd_option& option, std::string_view command);

// What was parsed: the subcommand and every option of it, defaults applied (environment default
// first, then the table's). Flags hold "1" / "0".
struct rocpd_args {
  std::string command;
  std::map<std::string, std::vector<std::string>> values;
  bool given(const std::string& key) const { return explicit_.count(key) != 0; }
  std::string text(const std::string& key) const;
  const std::vector<std::string>& list(const std::string& key) const;
  bool flag(const std::string& key) const;
  std::map<std::string, bool> explicit_;
};

// `args` excludes argv[0]. Returns nullopt after printing help or the version to `out`.
// Throws usage_error for unknown options, bad values, or a missing required option.
std::optional<rocpd_args> parse_rocpd_args(const std::vector<std::string>& args, std::ostream& out);

}  // namespace rocprof::rocpd_cli
