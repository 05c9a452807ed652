// The one tool instance of a process: the settings it runs with, the contexts and buffers it
// configured through the core's public API, and where converted records go. Created in
// rocprofiler_configure; lives until process exit (never destroyed: callbacks may still arrive
// from threads that outlive finalization, and they must find it intact).
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include <rocprofiler-sdk/rocprofiler.h>

#include "collection_period_log.hpp"
#include "definitions_builder.hpp"
#include "record_store.hpp"
#include "rocprof/config/tool_settings.hpp"

namespace rocprof::tool {

struct counter_state;  // counter_collection.cpp

struct tool_state {
  config::tool_settings settings;
  // Pointers, so that a forked child can abandon the parent's (see reset_after_fork).
  std::unique_ptr<definitions_builder> defs = std::make_unique<definitions_builder>();
  std::unique_ptr<record_store> store;

  rocprofiler_context_id_t main_context{};         // every buffer-traced domain
  rocprofiler_context_id_t control_context{};      // pause/resume, thread names (always on)
  rocprofiler_context_id_t code_object_context{};  // code objects and kernel symbols
  rocprofiler_context_id_t rename_context{};       // --kernel-rename range tracking
  std::vector<rocprofiler_buffer_id_t> buffers;
  // Counter collection's state (its context, selection rules, configs); never freed.
  counter_state* counters = nullptr;

  // Set once the outputs are written: later deliveries are ignored (the process is ending).
  std::atomic<bool> finished{false};
  // Bumped whenever definitions are reset (fork), so per-thread string caches start over.
  std::atomic<uint32_t> generation{0};
  // A forked child drops records that started before the fork (the parent's, still sitting in
  // the core's per-thread buffers): the child starts clean. 0 in the original process.
  std::atomic<uint64_t> epoch_ns{0};
  // Tells the collection-period thread to stop.
  std::atomic<bool> stop_periods{false};
  // When the collection-period thread started and stopped collecting.
  period_log periods;
};

tool_state& state();

// services.cpp: creates contexts, buffers and services (inside the core's initialize call) and
// starts what should run from the beginning. Returns 0 on success.
int configure_services(tool_state& tool);
// Flushes every buffer, stops the main context, flushes again.
void drain_services(tool_state& tool);
// Collects agents from rocprofiler_query_available_agents into the definitions.
void collect_agents(tool_state& tool);

}  // namespace rocprof::tool
