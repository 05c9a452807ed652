// The one configuration schema: one row per rocprofv3 option, input-file key or tool setting.
//
// Everything else derives from this table: the CLI builds its CLI11 options from it (names,
// short forms, help groups, hidden flags), validates values from the command line and from input
// files with it (types, choices), writes the environment hand-off with it (env variable and form)
// and the tool library reads its settings with it (env variable and default). A default appears
// here once and nowhere else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::config {

enum class value_type {
  boolean,      // rocprofv3 BOOL: bare flag = true, or one of the words of parse_bool_word()
  integer,      // decimal, or hexadecimal with 0x
  string,       // free text (paths, regexes, templates)
  string_list,  // several values (nargs + or *)
  choice,       // one of `choices`
  choice_list,  // several of `choices`
  group_list,   // input-file only: a list of lists (pmc_groups)
};

// How the CLI writes a resolved value into the application's environment.
enum class env_form {
  none,          // the CLI consumes it (aggregates, launcher options) or the tool never sees it
  flag,          // "1" when true; nothing when false (the tool default is false)
  negated_flag,  // "0" when true (e.g. --mangled-kernels sets ROCPROF_DEMANGLE_KERNELS=0)
  text,          // the value as text (integers in decimal)
  joined,        // list values joined with `separator`
  custom,        // written by dedicated code in the CLI (pmc, collection periods, ...)
};

// Where a row may be set.
enum class option_scope {
  cli_and_file,  // a command-line option that is also a job key of input files
  cli_only,      // only on the command line (-i, --version, --echo, ...)
  file_only,     // only in input files (pmc_groups, pmc_group_interval)
  env_only,      // only a tool setting (no option, no job key)
};

struct option_spec {
  std::string_view key;         // job key = argparse dest (underscores)
  std::string_view long_name;   // without "--"; empty for file/env-only rows
  std::string_view short_name;  // without "-"; may be empty
  std::string_view aliases;     // further long names, space separated (legacy spellings)
  value_type type = value_type::boolean;
  std::string_view choices;        // space separated, for choice / choice_list
  std::string_view default_value;  // as the tool reads it from the env when the variable is unset
  std::string_view cli_default;    // a default that only the CLI applies (not the tool's)
  std::string_view env;            // the environment variable written / read
  env_form form = env_form::none;
  std::string_view separator;  // for env_form::joined
  std::string_view group;      // --help group
  std::string_view metavar;
  std::string_view help;
  // integer rows: the accepted range of the option's value (what the user writes; for
  // env_form::text rows also what the tool reads), checked by the CLI and the tool.
  uint64_t min_value = 0;
  uint64_t max_value = UINT64_MAX;
  bool hidden = false;
  bool amd_only = false;      // needs the AMD (ROCm) backend, which this build does not have
  bool zero_or_more = false;  // lists: nargs '*' instead of '+'
  option_scope scope = option_scope::cli_and_file;

  // The domain table: what turning the option on does. Read by the CLI (aggregate expansion,
  // backend injection, "does this pass collect anything"), the tool (its services, settings and
  // settings JSON) and a test that holds the backends' manifests to it (domains.hpp).
  std::string_view kinds;          // buffer-tracing kinds it traces (core names), space separated
  std::string_view shared_buffer;  // rows naming the same buffer share one; empty: one per kind
  std::string_view backend;        // the backend plugin serving it ("cuda"); empty: the core, or
                                   // no backend in this build (amd_only)
  std::string_view expands;        // aggregate: the keys it sets to true where they are unset
  int expansion_step = 0;          // rocprofv3's order of those expansions (facts §1.4)
  bool domain = false;    // a tracing domain: in tool_settings::domains when its variable is on
  bool collects = false;  // collects without tracing kinds itself (counters, thread trace, ...)

  // Chainable setters: the table in schema.cpp reads as one line of intent per row.
  constexpr option_spec& s(std::string_view v) {
    short_name = v;
    return *this;
  }
  constexpr option_spec& alias(std::string_view v) {
    aliases = v;
    return *this;
  }
  constexpr option_spec& of(value_type v) {
    type = v;
    return *this;
  }
  constexpr option_spec& among(std::string_view v) {
    choices = v;
    return *this;
  }
  constexpr option_spec& range(uint64_t low, uint64_t high) {
    min_value = low;
    max_value = high;
    return *this;
  }
  constexpr option_spec& def(std::string_view v) {
    default_value = v;
    return *this;
  }
  constexpr option_spec& cli_def(std::string_view v) {
    cli_default = v;
    return *this;
  }
  constexpr option_spec& to(std::string_view var, env_form f) {
    env = var;
    form = f;
    return *this;
  }
  constexpr option_spec& sep(std::string_view v) {
    separator = v;
    return *this;
  }
  constexpr option_spec& in(std::string_view v) {
    group = v;
    return *this;
  }
  constexpr option_spec& meta(std::string_view v) {
    metavar = v;
    return *this;
  }
  constexpr option_spec& says(std::string_view v) {
    help = v;
    return *this;
  }
  constexpr option_spec& hide() {
    hidden = true;
    return *this;
  }
  constexpr option_spec& amd() {
    amd_only = true;
    return *this;
  }
  constexpr option_spec& star() {
    zero_or_more = true;
    return *this;
  }
  constexpr option_spec& only(option_scope v) {
    scope = v;
    return *this;
  }
  constexpr option_spec& traces(std::string_view v) {
    kinds = v;
    return *this;
  }
  constexpr option_spec& shares(std::string_view buffer) {
    shared_buffer = buffer;
    return *this;
  }
  constexpr option_spec& by(std::string_view v) {
    backend = v;
    return *this;
  }
  constexpr option_spec& expands_to(int step, std::string_view keys) {
    expansion_step = step;
    expands = keys;
    return *this;
  }
  constexpr option_spec& tracing_domain() {
    domain = true;
    return *this;
  }
  constexpr option_spec& collecting() {
    collects = true;
    return *this;
  }
};

// Every row, in --help order.
const std::vector<option_spec>& schema();

// The row for a job key, or nullptr.
const option_spec* find_option(std::string_view key);

// The row for a job key; throws std::logic_error when the key is not in the table (a typo in
// our own code, never a user error).
const option_spec& option(std::string_view key);

// Why `value` is outside an integer row's range ("must be at most 4294967295"), or an empty
// string when it is inside.
std::string integer_range_problem(const option_spec& spec, uint64_t value);

// Splits a space-separated schema field (choices, aliases, kinds, expands) into its words.
std::vector<std::string_view> words(std::string_view field);

// The row's choice that `word` names, compared without regard to case (the CLI and the tool
// accept "CSV" for csv); std::nullopt when it names none.
std::optional<std::string_view> find_choice(const option_spec& spec, std::string_view word);

}  // namespace rocprof::config
