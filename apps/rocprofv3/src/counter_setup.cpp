#include "counter_setup.hpp"

#include <set>

#include "core_agents.hpp"
#include "counter_check_memo.hpp"
#include "counter_listing.hpp"
#include "output_directory.hpp"
#include "rocprof/common/placeholders.hpp"
#include "rocprof/config/domains.hpp"
#include "rocprof/config/values.hpp"
#include "rocprof/counters/definitions.hpp"

namespace rocprof::cli {
namespace {

constexpr const char* chip_variable = "ROCPROF_COUNTER_CHIP";
constexpr const char* check_variable = "ROCPROF_COUNTER_CHECK";

// The first backend that offers counters and loads.
std::unique_ptr<counter_backend> open_counters(const tool_paths& paths, std::string& why) {
  for (const auto& backend : config::backends()) {
    if (backend.counter_listing_entry.empty()) continue;
    if (auto opened = open_backend_counters(backend, paths.backend(backend.name), why))
      return opened;
  }
  if (why.empty()) why = "no backend of this build offers counters";
  return nullptr;
}

std::vector<rocprofiler_agent_v0_t> visible_gpus(const tool_paths& paths, std::string& why) {
  gpu_agent_list list = query_gpu_agents(paths.core(), paths.backend_directory());
  why = config::join(list.why_none, "; ");
  return std::move(list.gpus);
}

std::string counters_of(const std::vector<pass>& passes) {
  for (const auto& p : passes) {
    if (p.config.has("pmc")) return "--pmc " + config::join(p.config.list("pmc"), " ");
    if (p.config.has("pmc_groups")) return "pmc_groups";
  }
  return "counters";
}

}  // namespace

std::string named_counter_chip(const job& cli, const environment& base) {
  if (auto chip = cli.text("counter_chip"); chip && !chip->empty()) return *chip;
  return environment_value(base, chip_variable);
}

bool counter_check_enabled(const environment& base) {
  const std::string value = environment_value(base, check_variable);
  return value.empty() || config::parse_env_bool(value).value_or(true);
}

counter_check_result check_run_counters(std::vector<pass> passes, const job& cli,
                                        const tool_paths& paths, const environment& base) {
  counter_check_setup setup;
  setup.shipped_definitions = counters::shipped_definitions_path(paths.root);
  const std::string chip = named_counter_chip(cli, base);
  if (!chip.empty()) {
    setup.targets.push_back(named_chip_target(chip));
  } else {
    std::string why;
    setup.targets = targets_of_agents(visible_gpus(paths, why));
    if (setup.targets.empty()) {
      throw usage_error(counters_of(passes) +
                        ": hardware counters need a GPU, and none is visible to the profiler (" +
                        (why.empty() ? std::string("no GPU agent") : why) +
                        "). Run on a machine with a GPU, or name a chip with --counter-chip "
                        "(or $ROCPROF_COUNTER_CHIP) to check the counters without one.");
    }
  }
  std::string why;
  auto backend = open_counters(paths, why);
  if (!backend) throw usage_error("cannot check the counters: " + why);
  const counter_check_memo memo(counter_check_memo::folder_from(base));
  const std::string key =
      counter_check_key(passes, setup.targets, setup.shipped_definitions, backend->source());
  counter_check_result kept;
  if (memo.passed(key, kept.warnings)) {
    kept.passes = std::move(passes);
    return kept;
  }
  native_listings listings(*backend);
  setup.listings = &listings;
  const size_t asked = passes.size();
  auto checked = check_pass_counters(std::move(passes), setup);
  // A check that split groups (application replay) rewrote the passes: it is not kept.
  if (checked.passes.size() == asked) memo.keep(key, checked.warnings);
  return checked;
}

void print_available_counters(std::ostream& out, const std::vector<rocprofiler_agent_v0_t>& gpus,
                              const job& cli, const tool_paths& paths, const environment& base) {
  const std::string chip = named_counter_chip(cli, base);
  std::vector<counter_target> targets =
      chip.empty() ? targets_of_agents(gpus) : std::vector<counter_target>{named_chip_target(chip)};
  if (targets.empty()) return;  // the GPU line above said why
  std::string why;
  auto backend = open_counters(paths, why);
  if (!backend) {
    out << "Counters: not available (" << why << ")\n";
    return;
  }
  std::vector<std::string> warnings;
  const auto definitions =
      load_pass_definitions(counters::shipped_definitions_path(paths.root),
                            cli.text("extra_counters").value_or(""), &warnings);
  native_listings listings(*backend);
  catalogue_cache catalogues;
  std::vector<listed_target> listed;
  std::map<std::string, std::string> first_of_chip;  // chip -> the header that listed it
  for (const auto& target : targets) {
    const std::string header =
        target.device ? "GPU:" + std::to_string(*target.device) : "Chip:" + target.chip;
    out << "\n" << header << "\n";
    const native_listing& listing = listings.of(target.chip);
    out << "Name:" << target.label
        << (listing.chip.empty() || !target.device ? std::string()
                                                   : " [counters of chip " + listing.chip + "]")
        << "\n";
    if (!listing.error.empty()) {
      out << "Counters: not available (" << listing.error << ")\n";
      continue;
    }
    const auto& cat = catalogues.of(target, listing, definitions, "", {});
    listed.push_back({target.device ? std::to_string(*target.device) : target.chip, &cat});
    const auto seen = first_of_chip.find(listing.chip);
    if (seen != first_of_chip.end()) {
      out << "Counters: the same as " << seen->second << " (same chip)\n";
      continue;
    }
    first_of_chip.emplace(listing.chip, header);
    print_target_counters(out, cat);
  }
  // As rocprofv3: with -o or -d the lists also go to files.
  if (!listed.empty() && (cli.has("output_file") || cli.has("output_directory"))) {
    const auto context = common::placeholder_context::for_current_process();
    const std::string dir = common::expand_placeholders(output_root(cli, base), context);
    const std::string prefix = common::expand_placeholders(
        cli.text("output_file").value_or(std::string(config::option("output_file").default_value)),
        context);
    const std::string path_prefix = dir + "/" + prefix;
    ensure_output_directory(path_prefix.substr(0, path_prefix.find_last_of('/')));
    for (const auto& path : write_counter_files(path_prefix, listed))
      out << "Opened result file: " << path << "\n";
  }
}

}  // namespace rocprof::cli
