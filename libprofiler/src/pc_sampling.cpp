// The PC sampling service: configuration queries go to the backend that owns the agent
// (backend_loader.cpp), configuration follows rocprofiler-sdk's constraints (pc_sampling.h),
// and samples a backend emits are copied into the buffer of each active context sampling the
// agent. Nothing here is on the hot path of tracing: samples arrive from a backend's drain
// thread in batches.
#include "pc_sampling.hpp"

#include <rocprofiler-sdk/pc_sampling_instructions.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "agents.hpp"
#include "backend_loader.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "guarded.hpp"
#include "limits.hpp"
#include "pc_sample_expansion.hpp"
#include "registration.hpp"
#include "rocprof/common/pc_sampling_check.hpp"

namespace rocprof::core {
namespace {

// The configuration each agent samples with (one per agent, for the process's life) and the
// one context allowed to hold PC sampling services. Guarded by config_mutex().
struct agent_configuration {
  rocprof_pc_sampling_request_t request{};
};

std::vector<agent_configuration>& configured_agents() {
  static auto* v = new std::vector<agent_configuration>();
  return *v;
}

const context* g_sampling_context = nullptr;

// Samples are aggregated by the hardware and handed over late: CUPTI gives the last range's
// only at cuptiPCSamplingStop, which a backend calls when the core stops it, i.e. after the
// sampling context went inactive (rocprofiler_stop_context -> contexts_changed -> backend stop).
// Those samples were taken while the context was active, so they are kept: from the moment the
// context is seen stopped (after having run) until it starts again, records are still accepted.
// A context never started accepts nothing. Set in add_pc_sampling_requests, read when emitting.
std::atomic<bool> g_sampling_context_ran{false};
std::atomic<bool> g_accept_late_samples{false};

const agent_configuration* configuration_of(rocprofiler_agent_id_t agent) {
  for (const agent_configuration& a : configured_agents())
    if (a.request.agent_id.handle == agent.handle) return &a;
  return nullptr;
}

bool counters_configured() {
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i)
    if (g_contexts[i]->counters) return true;
  return false;
}

std::vector<pc_sampling::offer> offers_of(
    const std::vector<rocprofiler_pc_sampling_configuration_t>& configs) {
  std::vector<pc_sampling::offer> offers;
  for (const auto& c : configs)
    offers.push_back({static_cast<int>(c.method), static_cast<int>(c.unit), c.min_interval,
                      c.max_interval,
                      (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0});
  return offers;
}

rocprofiler_status_t configure(context* ctx, rocprofiler_agent_id_t agent,
                               rocprofiler_pc_sampling_method_t method,
                               rocprofiler_pc_sampling_unit_t unit, uint64_t interval, buffer* b,
                               bool aggregated_records) {
  std::lock_guard<std::recursive_mutex> lock(config_mutex());
  if (counters_configured()) {
    warn_once("pc-sampling-counters",
              "PC sampling cannot be combined with counter collection; PC sampling refused");
    return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
  }
  if (g_sampling_context != nullptr && g_sampling_context != ctx)
    return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  for (const pc_sampling_service& s : ctx->pc_sampling)
    if (s.agent.handle == agent.handle) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
  if (ctx->pc_sampling.size() >= ROCPROF_BACKEND_MAX_PC_SAMPLING_AGENTS)
    return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
  const std::vector<rocprofiler_pc_sampling_configuration_t> configs =
      backend_pc_sampling_configurations(agent);
  if (configs.empty()) return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
  const std::vector<pc_sampling::offer> offers = offers_of(configs);
  const pc_sampling::check_result verdict = pc_sampling::check_request(
      offers.data(), offers.size(), static_cast<int>(method), static_cast<int>(unit), interval);
  if (verdict.outcome != pc_sampling::verdict::ok) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
  const rocprof_pc_sampling_request_t request{agent, method, unit, interval};
  if (const agent_configuration* in_use = configuration_of(agent)) {
    if (in_use->request.method != method || in_use->request.unit != unit ||
        in_use->request.interval != interval)
      return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
  } else {
    configured_agents().push_back({request});
  }
  ctx->pc_sampling.push_back({agent, b, aggregated_records});
  g_sampling_context = ctx;
  if (ctx->active.load()) contexts_changed();
  return ROCPROFILER_STATUS_SUCCESS;
}

// One STOCHASTIC_V0 record per sample of `a`, written straight into the buffer (no array of
// N records: memory stays bounded by the buffer's blocks, which the watermark hands to the
// tool as they fill). A dropped record (full buffer, drop policy) is counted by the buffer.
void emit_expanded(buffer* target, thread_state* st,
                   const rocprofiler_pc_sampling_record_aggregated_v0_t& a) {
  const pc_sample_split split = split_of(a);
  const struct {
    uint64_t count;
    bool issued;
  } groups[] = {{split.issued, true}, {split.not_issued, false}};
  for (const auto& g : groups) {
    if (g.count == 0) continue;
    const rocprofiler_pc_sampling_record_stochastic_v0_t sample = stochastic_sample_of(a, g.issued);
    for (uint64_t i = 0; i < g.count; ++i) {
      const reservation room =
          buffer_reserve(target, st, ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING,
                         ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE, sizeof(sample));
      if (room.record == nullptr) continue;
      std::memcpy(room.record, &sample, sizeof(sample));
      buffer_commit(room);
    }
  }
}

}  // namespace

bool pc_sampling_beta_enabled() {
  const char* v = std::getenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED");
  if (v == nullptr) return false;
  const std::string_view s(v);
  return !(s == "0" || s == "false" || s == "FALSE" || s == "off" || s == "OFF" || s == "no" ||
           s == "NO");
}

void add_pc_sampling_requests(rocprof_enabled_kinds_t& kinds) {
  if (const context* sampling = g_sampling_context) {
    const bool active = sampling->active.load();
    if (active) g_sampling_context_ran.store(true);
    g_accept_late_samples.store(!active && g_sampling_context_ran.load());
  }
  const uint32_t n = g_num_contexts.load();
  for (uint32_t i = 0; i < n; ++i) {
    const context* ctx = g_contexts[i];
    if (!ctx->active.load()) continue;
    for (const pc_sampling_service& s : ctx->pc_sampling) {
      const agent_configuration* c = configuration_of(s.agent);
      if (c == nullptr || kinds.pc_sampling_count >= ROCPROF_BACKEND_MAX_PC_SAMPLING_AGENTS)
        continue;
      kinds.pc_sampling[kinds.pc_sampling_count++] = c->request;
    }
  }
}

bool pc_sampling_configured() {
  std::lock_guard<std::recursive_mutex> lock(config_mutex());
  return g_sampling_context != nullptr;
}

void emit_pc_sampling_record(rocprofiler_agent_id_t agent,
                             rocprofiler_pc_sampling_record_kind_t kind, const void* record) {
  if (record == nullptr || kind <= ROCPROFILER_PC_SAMPLING_RECORD_NONE ||
      kind >= ROCPROFILER_PC_SAMPLING_RECORD_LAST)
    return;
  thread_state* st = current_thread();
  if (st == nullptr) return;
  uint64_t size = 0;
  std::memcpy(&size, record, sizeof(size));
  if (size < sizeof(uint64_t) || size > max_record_size) {
    warn_once("emit-pc-size", "a backend emitted a PC sample with an invalid size; dropped");
    return;
  }
  // The sampling context is set once during configuration, before any backend starts.
  const context* ctx = g_sampling_context;
  if (ctx == nullptr) return;
  if (!ctx->active.load(std::memory_order_relaxed) && !g_accept_late_samples.load()) return;
  for (const pc_sampling_service& s : ctx->pc_sampling) {
    if (s.agent.handle != agent.handle) continue;
    if (kind == ROCPROFILER_PC_SAMPLING_RECORD_AGGREGATED_V0_SAMPLE && !s.aggregated_records) {
      emit_expanded(s.target, st, aggregated_from(record, size));
      continue;
    }
    const reservation room = buffer_reserve(s.target, st, ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING,
                                            static_cast<uint32_t>(kind), size);
    if (room.record == nullptr) continue;
    std::memcpy(room.record, record, size);
    buffer_commit(room);
  }
}

}  // namespace rocprof::core

extern "C" {

using namespace rocprof::core;

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_pc_sampling_agent_configurations(
    rocprofiler_agent_id_t agent_id, rocprofiler_available_pc_sampling_configurations_cb_t cb,
    void* user_data) {
  return guarded(__func__, [&] {
    if (!agent_known(agent_id)) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    if (!pc_sampling_beta_enabled()) return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
    std::vector<rocprofiler_pc_sampling_configuration_t> configs =
        backend_pc_sampling_configurations(agent_id);
    {
      // An agent already sampling offers only the configuration in use.
      std::lock_guard<std::recursive_mutex> lock(config_mutex());
      if (const agent_configuration* in_use = configuration_of(agent_id)) {
        const rocprof_pc_sampling_request_t& r = in_use->request;
        std::vector<rocprofiler_pc_sampling_configuration_t> kept;
        for (auto c : configs) {
          if (c.method != r.method || c.unit != r.unit) continue;
          c.min_interval = c.max_interval = r.interval;
          kept.push_back(c);
        }
        configs.swap(kept);
      }
    }
    if (configs.empty()) return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
    return cb(configs.data(), configs.size(), user_data);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_configure_pc_sampling_service(
    rocprofiler_context_id_t context_id, rocprofiler_agent_id_t agent_id,
    rocprofiler_pc_sampling_method_t method, rocprofiler_pc_sampling_unit_t unit, uint64_t interval,
    rocprofiler_buffer_id_t buffer_id, int flags) {
  return guarded(__func__, [&] {
    if (!configuration_open()) return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    context* ctx = find_context(context_id);
    if (ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    buffer* b = find_buffer(buffer_id);
    if (b == nullptr) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
    if (!agent_known(agent_id)) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    const int known_flags = ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS;
    if ((flags & ~known_flags) != 0) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    if (!pc_sampling_beta_enabled()) {
      warn_once("pc-sampling-beta",
                "PC sampling is a beta feature: set ROCPROFILER_PC_SAMPLING_BETA_ENABLED=1 "
                "(rocprofv3 --pc-sampling-beta-enabled)");
      return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
    }
    return configure(ctx, agent_id, method, unit, interval, b,
                     (flags & ROCPROFILER_PC_SAMPLING_CONFIGURE_FLAG_AGGREGATED_RECORDS) != 0);
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_pc_sampling_loss(
    rocprofiler_agent_id_t agent_id, rocprofiler_pc_sampling_loss_t* loss) {
  return guarded(__func__, [&] {
    if (!agent_known(agent_id)) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    rocprofiler_pc_sampling_loss_t found{};
    found.size = sizeof(found);
    if (!backend_pc_sampling_loss(agent_id, found)) return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
    *loss = found;
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

ROCPROFILER_API rocprofiler_status_t rocprofiler_query_pc_sampling_instructions(
    rocprofiler_pc_sampling_instruction_cb_t cb, void* user_data) {
  return guarded(__func__, [&] {
    if (cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    backend_pc_sampling_instructions(cb, user_data);
    return ROCPROFILER_STATUS_SUCCESS;
  });
}

}  // extern "C"
