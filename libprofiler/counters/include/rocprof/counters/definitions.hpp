// Counter definitions in rocprofv3's schema (counter_defs.yaml, and -E/--extra-counters files):
//
//   rocprofiler-sdk:
//     counters-schema-version: 1
//     counters:
//     - name: GPUBusy
//       description: 'The percentage of time GPU was busy.'
//       properties: []
//       definitions:
//       - architectures: [sm_90, sm_100]
//         expression: 100*reduce(GRBM_GUI_ACTIVE,max)/reduce(GRBM_COUNT,max)
//
// A definition holds either an `expression` (a derived counter) or `block` + `event` (an AMD
// hardware counter: kept so AMD's files load, but offered on an agent only when its backend
// supplies a native counter of that name). Loading never throws; every error names the file,
// the line and column, the counter and, for expressions, the offset inside the expression.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rocprof/counters/expression.hpp"

namespace rocprof::counters {

struct source_location {
  std::string file;
  size_t line = 0;    // 1-based; 0 when unknown
  size_t column = 0;  // 1-based; 0 when unknown
};
// "file:line:column" (parts that are unknown are left out).
std::string location_text(const source_location& where);

struct counter_definition {
  std::vector<std::string> architectures;  // e.g. sm_90
  std::string expression;                  // empty for a block/event definition
  std::string block;
  std::string event;
  std::string description;                             // optional, per architecture
  std::shared_ptr<const counters::expression> parsed;  // set when expression is non-empty
  source_location location;                            // the definition's first key
  source_location expression_location;                 // where the expression's scalar starts
  // The scalar reads in the file exactly as the expression (one line, plain or quoted), so a
  // character offset in the expression is that many columns after its first character.
  bool expression_verbatim = false;
};

// Where offset `offset` of a definition's expression is in its file: the exact column when the
// expression is written verbatim, else the scalar's start.
source_location location_in_expression(const counter_definition& def, size_t offset);

// The standard report of a problem in a counter's expression:
//   file:line:col: counter 'X': <message>
//       <expression>
//       <caret under the offset>
std::string expression_problem(const counter_definition& def, const std::string& counter,
                               const error& problem);

struct counter_entry {
  std::string name;
  std::string description;
  std::vector<std::string> properties;
  std::vector<counter_definition> definitions;
  source_location location;

  // The definition that lists `architecture`, or nullptr.
  const counter_definition* for_architecture(std::string_view architecture) const;
};

class definition_set {
 public:
  const std::vector<counter_entry>& counters() const { return counters_; }
  const counter_entry* find(std::string_view name) const;
  bool empty() const { return counters_.empty(); }
  // Adds an entry whose name is not yet present (the loader rejects duplicates before this).
  void add(counter_entry entry);
  counter_entry* find_mutable(std::string_view name);

 private:
  std::vector<counter_entry> counters_;
  std::unordered_map<std::string, size_t> index_;
};

struct load_result {
  definition_set definitions;         // meaningful only when ok()
  std::vector<std::string> errors;    // each "file:line:col: ..." (maybe several lines)
  std::vector<std::string> warnings;  // e.g. unknown keys, missing schema version
  bool ok() const { return errors.empty(); }
};

inline constexpr int counters_schema_version = 1;

// Parses definitions from YAML text; `file_name` is used in messages only.
load_result parse_definitions(std::string_view yaml_text, const std::string& file_name);
// Reads and parses a file.
load_result load_definitions_file(const std::string& path);

// How extra definitions join the shipped ones, as rocprofiler_load_counter_definition's flags.
enum class merge_mode {
  append,   // ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION (what rocprofv3 -E uses)
  replace,  // ROCPROFILER_COUNTER_FLAG_NONE: the extra definitions are the only ones
};

// Merges `extra` into `into`. In append mode a counter that exists already keeps its
// definitions for architectures `extra` does not mention; for each architecture `extra` defines,
// extra's definition replaces the old one (and a non-empty description replaces the old one).
// Returns one note per replaced architecture definition ("... overrides ..."), for logs.
std::vector<std::string> merge_definitions(definition_set& into, const definition_set& extra,
                                           merge_mode mode);

// The shipped definitions with extra ones merged in, in one call: what the CLI does for -E FILE
// and what the tool does with ROCPROF_EXTRA_COUNTERS_CONTENTS (append), and what
// rocprofiler_load_counter_definition does with either flag. Errors in either text fail the
// whole load (nothing half-merged); the override notes come back as warnings.
load_result load_with_extra_definitions(const std::string& shipped_path,
                                        std::string_view extra_text, const std::string& extra_name,
                                        merge_mode mode = merge_mode::append);

// Where the shipped counter_defs.yaml is: $ROCPROFILER_METRICS_PATH/counter_defs.yaml when that
// file exists (rocprofiler-sdk's variable), else <install_prefix>/share/rocprofiler-sdk/
// counter_defs.yaml. `install_prefix` is the directory above bin/ or lib/ of the caller.
std::string shipped_definitions_path(const std::string& install_prefix);

}  // namespace rocprof::counters
