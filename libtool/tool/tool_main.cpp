// The tool's entry points and life cycle (see lifecycle.hpp for when the end comes):
//   rocprofiler_configure  (core initialisation) reads the settings, declines on fatal errors,
//                          registers the life-cycle hooks
//   tool_initialize        (core, right after)    configures contexts, buffers and services
//   finalize               (exactly once)         drains the buffers, then hands definitions
//                                                 and spooled records to every writer
#include <dlfcn.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "host_callstack_service.hpp"
#include "lifecycle.hpp"
#include "output_stage.hpp"
#include "pc_sampling_service.hpp"
#include "rocprof/common/c_boundary.hpp"
#include "tool_state.hpp"

namespace rocprof::tool {
namespace {

// In-memory records before spilling to disk (about 1.5 M API records).
constexpr size_t spool_budget_bytes = size_t{128} << 20;

uint64_t now_ns() {
  rocprofiler_timestamp_t ts = 0;
  rocprofiler_get_timestamp(&ts);
  return ts;
}

void finalize() {
  auto& tool = state();
  drain_services(tool);
  report_pc_sampling_losses(tool);
  tool.finished.store(true, std::memory_order_release);
  tool.defs->set_tool_times(0, now_ns());
  collect_agents(tool);  // again: a backend may have registered agents since (deduplicated)
  tool.defs->fill_missing_thread_names();
  auto instructions = sampled_pc_instructions(tool);  // interns its texts: before the snapshot
  auto defs = tool.defs->snapshot();
  defs.pc_instructions = std::move(instructions);
  attach_host_callstacks(tool, defs);  // while every module of the stacks is still mapped
  if (defs.dropped_records != 0)
    std::fprintf(stderr, "rocprofv3: %llu records were dropped\n",
                 static_cast<unsigned long long>(defs.dropped_records));
  if (tool.store == nullptr) return;
  // Out of memory while writing (the process may be ending because memory ran out): what was
  // begun is removed (staged files), and under the launcher the journal stays for it to write
  // the outputs again.
  const bool written = rocprof::c_boundary::guarded_or("writing the outputs", false, [&] {
    const auto result = tool.store->write_outputs(defs);
    for (const auto& error : result.errors)
      std::fprintf(stderr, "rocprofv3: %s\n", error.c_str());
    if (tool.settings.collection_period_testing) {
      const std::string error =
          write_period_log(tool.store->output_options(), tool.periods.windows());
      if (!error.empty()) std::fprintf(stderr, "rocprofv3: %s\n", error.c_str());
    }
    return true;
  });
  std::fflush(stderr);
  // Not destroyed: a callback thread may still be appending (it saw `finished` too late).
  if (written || !tool.store->journaling()) tool.store->finish();
}

// A fatal fault: the process is going down. Under the launcher, what the buffers hold goes to
// the journal and the launcher writes the outputs (less work in a damaged process); otherwise
// the outputs are written here, as for a stop signal.
void flush_for_fault() {
  auto& tool = state();
  if (tool.store != nullptr && tool.store->journaling())
    drain_services(tool);
  else
    lifecycle::finalize_once();
}

void reset_after_fork() {
  auto& tool = state();
  tool.generation.fetch_add(1, std::memory_order_acq_rel);
  tool.epoch_ns.store(now_ns(), std::memory_order_release);
  // A thread of the parent (a delivery thread converting records) may have held the lock of
  // the definitions or of the record store at the fork, in the middle of a change; that thread
  // does not exist here. The child abandons both objects instead of locking, clearing or
  // destroying them (they stay reachable from `abandoned`, never destroyed, so leak checkers
  // stay quiet) and starts with new ones: its own claim on output names, its own journal.
  static auto* abandoned = new std::vector<void*>();
  abandoned->push_back(tool.defs.release());
  tool.defs = std::make_unique<definitions_builder>();
  tool.defs->capture_process_identity();
  tool.defs->set_config_json(settings_to_json(tool.settings));
  tool.defs->set_tool_times(now_ns(), 0);
  if (tool.store != nullptr) {
    tool.store->abandon_in_forked_child();
    abandoned->push_back(tool.store.release());
    tool.store = std::make_unique<record_store>(tool.settings, *tool.defs, spool_budget_bytes);
  }
  // The collection-period thread did not come along; its log's lock may be held: a fresh log
  // (the old one's memory is left alone).
  new (&tool.periods) period_log();
  tool.finished.store(false, std::memory_order_release);
}

// Kokkos 3.x loads tools from KOKKOS_PROFILE_LIBRARY, newer ones from KOKKOS_TOOLS_LIBS (what
// rocprofv3 sets): bridge the two before the application initialises Kokkos.
void bridge_kokkos_environment() {
  const char* tools = std::getenv("KOKKOS_TOOLS_LIBS");
  const char* profile = std::getenv("KOKKOS_PROFILE_LIBRARY");
  if (tools != nullptr && *tools != '\0' && (profile == nullptr || *profile == '\0'))
    ::setenv("KOKKOS_PROFILE_LIBRARY", tools, 0);
}

int tool_initialize(rocprofiler_client_finalize_t, void* data) {
  auto& tool = *static_cast<tool_state*>(data);
  const int status = configure_services(tool);
  // After the services: GPU agents exist once a context configured a kind their backend serves.
  collect_agents(tool);
  lifecycle::install(finalize, reset_after_fork, tool.settings.signal_handlers, flush_for_fault);
  return status;
}

void tool_finalize(void*) {
  lifecycle::finalize_once();
}

// What rocprofiler_configure does: reads the settings and prepares the tool; nullptr declines
// (the application then runs unprofiled).
rocprofiler_tool_configure_result_t* configure_tool() {
  auto result = rocprof::config::read_tool_settings();
  for (const auto& warning : result.warnings)
    std::fprintf(stderr, "rocprofv3: warning: %s\n", warning.c_str());
  if (!result.errors.empty()) {
    for (const auto& error : result.errors)
      std::fprintf(stderr, "rocprofv3: %s\n", error.c_str());
    std::fprintf(stderr, "rocprofv3: the tool is not loaded; the application runs unprofiled\n");
    return nullptr;
  }
  auto& tool = state();
  tool.settings = std::move(result.settings);
  tool.defs->set_tool_times(now_ns(), 0);
  tool.defs->capture_process_identity();
  tool.defs->set_config_json(settings_to_json(tool.settings));
  tool.store = std::make_unique<record_store>(tool.settings, *tool.defs, spool_budget_bytes);
  if (tool.settings.traces("kokkos_trace")) bridge_kokkos_environment();
  static rocprofiler_tool_configure_result_t configured{sizeof(rocprofiler_tool_configure_result_t),
                                                        tool_initialize, tool_finalize, &state()};
  return &configured;
}

}  // namespace

tool_state& state() {
  // Never destroyed: callbacks may arrive from threads that outlive static destruction.
  static auto* instance = new tool_state();
  return *instance;
}

}  // namespace rocprof::tool

// A failure while configuring (the settings, memory) declines too: the guard reports it once.
extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id) {
  return rocprof::c_boundary::guarded_or(
      __func__, static_cast<rocprofiler_tool_configure_result_t*>(nullptr), [client_id] {
        if (client_id != nullptr) client_id->name = "rocprofv3";
        return rocprof::tool::configure_tool();
      });
}
