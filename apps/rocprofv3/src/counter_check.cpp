#include "counter_check.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "rocprof/common/read_file.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"
#include "rocprof/counters/pass_plan.hpp"

namespace rocprof::cli {
namespace {

namespace rc = rocprof::counters;

struct counter_group {
  std::vector<std::string> requests;  // as written: NAME or NAME:device=N
  std::string where;                  // for messages: "--pmc", "jobs.yaml:4: ...", ...
  bool multiplexed = false;           // one of pmc_groups
};

std::string where_of(const pass& p, const std::string& key) {
  const auto it = p.config.where.find(key);
  if (it != p.config.where.end()) return it->second;
  const auto& spec = config::option(key);
  return spec.long_name.empty() ? "input file key '" + key + "'"
                                : "--" + std::string(spec.long_name);
}

// The counters of a list as the tool will read them from "pmc: ..." (commas separate too).
std::vector<std::string> as_the_tool_reads(const std::vector<std::string>& words) {
  return config::parse_pmc_line("pmc: " + config::join(words, " "));
}

std::vector<counter_group> groups_of(const pass& p) {
  std::vector<counter_group> out;
  if (p.config.has("pmc"))
    out.push_back({as_the_tool_reads(p.config.list("pmc")), where_of(p, "pmc"), false});
  const auto groups = p.config.list("pmc_groups");
  for (size_t i = 0; i < groups.size(); ++i) {
    out.push_back({as_the_tool_reads({groups[i]}),
                   where_of(p, "pmc_groups") + ": group " + std::to_string(i + 1), true});
  }
  return out;
}

std::string joined(const std::vector<std::string>& names, const char* separator = ", ") {
  return config::join(names, separator);
}

// Hardware passes by (chip, base counters), each asked once.
class pass_counts {
 public:
  explicit pass_counts(counter_backend& backend) : backend_(&backend) {}
  size_t of(const std::string& chip, const std::vector<std::string>& names) {
    auto key = std::make_pair(chip, names);
    const auto it = known_.find(key);
    if (it != known_.end()) return it->second;
    std::string why;
    const size_t passes = backend_->count_passes(chip, names, why);
    if (passes == 0) last_refusal_ = why;
    known_.emplace(std::move(key), passes);
    return passes;
  }
  const std::string& last_refusal() const { return last_refusal_; }

 private:
  counter_backend* backend_;
  std::map<std::pair<std::string, std::vector<std::string>>, size_t> known_;
  std::string last_refusal_;
};

class checker {
 public:
  explicit checker(const counter_check_setup& setup)
      : setup_(setup), counts_(setup.listings->backend()) {}

  // The one-pass groups a group is split into (application replay), or nothing.
  std::vector<std::vector<std::string>> check_group(const counter_group& group,
                                                    const std::string& replay,
                                                    const rc::definition_set& definitions,
                                                    const std::string& definitions_key) {
    std::vector<config::counter_request> requests;
    for (const auto& raw : group.requests) {
      auto request = config::parse_counter_request(raw);
      if (!request || request->name.empty())
        throw usage_error(group.where + ": '" + raw + "' is not NAME or NAME:device=N");
      requests.push_back(std::move(*request));
    }
    for (const auto& target : setup_.targets) {
      std::vector<std::string> names;
      for (const auto& r : requests) {
        const bool here = !r.device || !target.device || *r.device == *target.device;
        if (here && std::find(names.begin(), names.end(), r.name) == names.end())
          names.push_back(r.name);
      }
      if (names.empty()) continue;
      const native_listing& listing = setup_.listings->of(target.chip);
      if (!listing.error.empty()) {
        throw usage_error("cannot check the counters of " + group.where + " on " + target.label +
                          ": " + listing.error +
                          " (ROCPROF_COUNTER_CHECK=0 hands them to the tool unchecked)");
      }
      const target_catalogue& cat =
          cache_.of(target, listing, definitions, definitions_key, all_names_);
      for (const auto& name : names) {
        if (cat.offers(name)) continue;
        throw usage_error(group.where + ": counter '" + name + "' is not available on " +
                          target.label + ": " + defined_at(definitions, cat, name) +
                          cat.unavailable_message(name));
      }
      const std::string chip = listing.chip.empty() ? target.chip : listing.chip;
      auto planned = rc::plan_passes(cat.catalogue(), names,
                                     [&](const auto& bases) { return counts_.of(chip, bases); });
      if (!planned) {
        std::string why = planned.failure().message;
        if (!counts_.last_refusal().empty()) why += ": " + counts_.last_refusal();
        throw usage_error(group.where + ": " + why);
      }
      const rc::pass_plan& plan = planned.value();
      if (plan.fits_one_pass() || replay == "kernel") continue;
      if (!plan.multi_pass_counters.empty()) {
        throw usage_error(group.where + ": the counters " + joined(plan.requested) + " need " +
                          std::to_string(plan.passes) + " hardware passes on " +
                          cat.architecture() + ", and " + joined(plan.multi_pass_counters) +
                          (plan.multi_pass_counters.size() == 1 ? " needs" : " need") +
                          " several passes even alone: only --replay-mode kernel collects " +
                          (plan.multi_pass_counters.size() == 1 ? "it" : "them") +
                          " (each counted kernel replayed within the run)");
      }
      if (replay == "application" && !group.multiplexed) return with_device_filters(plan, group);
      if (group.multiplexed) {
        std::string split;
        for (const auto& g : plan.one_pass_groups)
          split += (split.empty() ? "" : ", ") + ("[" + joined(g) + "]");
        throw usage_error(group.where + ": the counters " + joined(plan.requested) + " need " +
                          std::to_string(plan.passes) + " hardware passes on " +
                          cat.architecture() +
                          ", and each pmc_groups group is collected in one pass unless "
                          "--replay-mode kernel is given. Groups that fit one pass each: " +
                          split);
      }
      throw usage_error(group.where + ": " + plan.error_text(cat.architecture()) +
                        " --replay-mode application runs the application once per group.");
    }
    return {};
  }

  void set_all_names(std::vector<std::string> names) { all_names_ = std::move(names); }

 private:
  // "extra.yaml:3:5: " when the counter comes from a definitions file, so that the user sees
  // which definition is meant.
  static std::string defined_at(const rc::definition_set& definitions, const target_catalogue& cat,
                                const std::string& name) {
    const auto* entry = definitions.find(name);
    if (entry == nullptr) return {};
    const auto* def = entry->for_architecture(cat.architecture());
    return rc::location_text(def != nullptr ? def->location : entry->location) + ": ";
  }

  // The split groups, as requests: counters kept for other GPUs (":device=N") stay with the
  // first group.
  static std::vector<std::vector<std::string>> with_device_filters(const rc::pass_plan& plan,
                                                                   const counter_group& group) {
    std::vector<std::vector<std::string>> out;
    std::set<std::string> placed;
    for (const auto& names : plan.one_pass_groups) {
      std::vector<std::string> requests;
      for (const auto& raw : group.requests) {
        const auto name = config::parse_counter_request(raw)->name;
        if (std::find(names.begin(), names.end(), name) != names.end()) {
          requests.push_back(raw);
          placed.insert(raw);
        }
      }
      out.push_back(std::move(requests));
    }
    for (const auto& raw : group.requests)
      if (!placed.count(raw) && !out.empty()) out.front().push_back(raw);
    return out;
  }

  const counter_check_setup& setup_;
  pass_counts counts_;
  catalogue_cache cache_;
  std::vector<std::string> all_names_;
};

// "pass_3" -> "pass_", "" -> "pass_".
std::string sub_directory_prefix(const std::string& sub_directory) {
  const size_t end = sub_directory.find_last_not_of("0123456789");
  return end == std::string::npos ? "pass_" : sub_directory.substr(0, end + 1);
}

}  // namespace

std::string read_extra_counters(const std::string& path) {
  std::string text;
  if (!common::read_whole_file(path, text))
    throw usage_error("argument -E/--extra-counters: cannot read '" + path + "'");
  return text;
}

bool passes_collect_counters(const std::vector<pass>& passes) {
  return std::any_of(passes.begin(), passes.end(), [](const pass& p) {
    return p.config.has("pmc") || p.config.has("pmc_groups");
  });
}

counters::definition_set load_pass_definitions(const std::string& shipped_path,
                                               const std::string& extra_path,
                                               std::vector<std::string>* warnings) {
  if (!std::ifstream(shipped_path).good()) {
    // An installation without its share/ folder still offers every native counter.
    if (warnings != nullptr)
      warnings->push_back("counter definitions not found at " + shipped_path +
                          ": only native counters are available");
    if (extra_path.empty()) return {};
    const rc::load_result extra =
        rc::parse_definitions(read_extra_counters(extra_path), extra_path);
    if (!extra.ok())
      throw usage_error("argument -E/--extra-counters:\n" + joined(extra.errors, "\n"));
    return extra.definitions;
  }
  const rc::load_result loaded =
      extra_path.empty() ? rc::load_definitions_file(shipped_path)
                         : rc::load_with_extra_definitions(
                               shipped_path, read_extra_counters(extra_path), extra_path);
  if (!loaded.ok()) {
    const std::string what =
        extra_path.empty() ? "counter definitions " + shipped_path : "argument -E/--extra-counters";
    throw usage_error(what + ":\n" + joined(loaded.errors, "\n"));
  }
  if (warnings != nullptr) {
    for (const auto& w : loaded.warnings)
      warnings->push_back(w);
  }
  return loaded.definitions;
}

counter_check_result check_pass_counters(std::vector<pass> passes,
                                         const counter_check_setup& setup) {
  counter_check_result out;
  checker check(setup);
  std::vector<std::string> all_names;
  for (const auto& p : passes)
    for (const auto& group : groups_of(p))
      for (const auto& raw : group.requests)
        if (auto request = config::parse_counter_request(raw)) all_names.push_back(request->name);
  check.set_all_names(all_names);

  std::map<std::string, rc::definition_set> definitions;  // by -E path ("" for none)
  bool split = false;
  for (auto& p : passes) {
    const std::string extra = p.config.text("extra_counters").value_or("");
    auto defs = definitions.find(extra);
    if (defs == definitions.end()) {
      defs = definitions
                 .emplace(extra,
                          load_pass_definitions(setup.shipped_definitions, extra, &out.warnings))
                 .first;
    }
    const std::string replay = p.config.text("replay_mode").value_or("");
    std::vector<std::vector<std::string>> pieces;
    for (const auto& group : groups_of(p)) {
      auto parts = check.check_group(group, replay, defs->second, extra);
      if (!parts.empty()) pieces = std::move(parts);  // only the (single) pmc group splits
    }
    if (pieces.empty()) {
      out.passes.push_back(std::move(p));
      continue;
    }
    split = true;
    for (auto& piece : pieces) {
      // A group that fits one pass on the GPU that split it must fit on the others too.
      check.check_group({piece, where_of(p, "pmc"), false}, "", defs->second, extra);
      pass part = p;
      part.config.values["pmc"] = std::move(piece);
      out.passes.push_back(std::move(part));
    }
  }
  if (split) {
    // The application runs once per group now: every pass gets its own numbered directory.
    for (size_t i = 0; i < out.passes.size(); ++i) {
      auto& sub = out.passes[i].sub_directory;
      sub = sub_directory_prefix(sub) + std::to_string(i + 1);
    }
  }
  return out;
}

}  // namespace rocprof::cli
