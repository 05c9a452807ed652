// The definition set, positions in files, merging extra definitions into the shipped ones, and
// finding the shipped file.
#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "rocprof/counters/definitions.hpp"

namespace rocprof::counters {

std::string location_text(const source_location& where) {
  std::string out = where.file.empty() ? std::string("<counter definitions>") : where.file;
  if (where.line != 0) {
    out += ":" + std::to_string(where.line);
    if (where.column != 0) out += ":" + std::to_string(where.column);
  }
  return out;
}

source_location location_in_expression(const counter_definition& def, size_t offset) {
  source_location at = def.expression_location;
  if (def.expression_verbatim && offset != std::string::npos && at.column != 0)
    at.column += std::min(offset, def.expression.size());
  return at;
}

std::string expression_problem(const counter_definition& def, const std::string& counter,
                               const error& problem) {
  std::string out = location_text(location_in_expression(def, problem.offset)) + ": counter '" +
                    counter + "': " + problem.message;
  if (problem.offset == std::string::npos) return out;
  // Line breaks and tabs shown as spaces keep the caret under the right character.
  std::string shown = def.expression;
  for (auto& c : shown)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return out + "\n    " + shown + "\n    " +
         std::string(std::min(problem.offset, shown.size()), ' ') + "^";
}

const counter_definition* counter_entry::for_architecture(std::string_view architecture) const {
  for (const auto& def : definitions)
    for (const auto& arch : def.architectures)
      if (arch == architecture) return &def;
  return nullptr;
}

const counter_entry* definition_set::find(std::string_view name) const {
  const auto it = index_.find(std::string(name));
  return it == index_.end() ? nullptr : &counters_[it->second];
}

counter_entry* definition_set::find_mutable(std::string_view name) {
  const auto it = index_.find(std::string(name));
  return it == index_.end() ? nullptr : &counters_[it->second];
}

void definition_set::add(counter_entry entry) {
  index_.emplace(entry.name, counters_.size());
  counters_.push_back(std::move(entry));
}

std::vector<std::string> merge_definitions(definition_set& into, const definition_set& extra,
                                           merge_mode mode) {
  std::vector<std::string> notes;
  if (mode == merge_mode::replace) {
    into = extra;
    return notes;
  }
  for (const auto& entry : extra.counters()) {
    counter_entry* existing = into.find_mutable(entry.name);
    if (existing == nullptr) {
      into.add(entry);
      continue;
    }
    if (!entry.description.empty()) existing->description = entry.description;
    for (const auto& def : entry.definitions) {
      // Take the architectures extra defines out of the old definitions, then add extra's.
      for (auto& old : existing->definitions) {
        auto& archs = old.architectures;
        for (const auto& arch : def.architectures) {
          const auto it = std::find(archs.begin(), archs.end(), arch);
          if (it == archs.end()) continue;
          notes.push_back(location_text(def.location) + ": counter '" + entry.name + "' for " +
                          arch + " overrides the definition at " + location_text(old.location));
          archs.erase(it);
        }
      }
      auto& defs = existing->definitions;
      defs.erase(
          std::remove_if(defs.begin(), defs.end(),
                         [](const counter_definition& d) { return d.architectures.empty(); }),
          defs.end());
      defs.push_back(def);
    }
  }
  return notes;
}

load_result load_with_extra_definitions(const std::string& shipped_path,
                                        std::string_view extra_text, const std::string& extra_name,
                                        merge_mode mode) {
  load_result extra = parse_definitions(extra_text, extra_name);
  load_result out;
  if (mode == merge_mode::append) out = load_definitions_file(shipped_path);
  out.errors.insert(out.errors.end(), extra.errors.begin(), extra.errors.end());
  out.warnings.insert(out.warnings.end(), extra.warnings.begin(), extra.warnings.end());
  if (!out.ok()) {
    out.definitions = definition_set{};
    return out;
  }
  const auto notes = merge_definitions(out.definitions, extra.definitions, mode);
  out.warnings.insert(out.warnings.end(), notes.begin(), notes.end());
  return out;
}

std::string shipped_definitions_path(const std::string& install_prefix) {
  if (const char* dir = std::getenv("ROCPROFILER_METRICS_PATH"); dir != nullptr && *dir != 0) {
    const std::string candidate = std::string(dir) + "/counter_defs.yaml";
    if (std::ifstream(candidate).good()) return candidate;
  }
  return install_prefix + "/share/rocprofiler-sdk/counter_defs.yaml";
}

}  // namespace rocprof::counters
