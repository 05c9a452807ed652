// Turning a backend's native values into a config's counter values: shared by dispatch
// counting (one kernel's values) and device sampling (an agent's accumulated values, one
// hardware sample's values).
#pragma once

#include <cstdint>
#include <vector>

#include "counters/counter_config.hpp"
#include "rocprofiler-sdk/fwd.h"

namespace rocprof::core::counters {

/// Evaluates `config`'s counters (derived ones included) from `values`: the config's native
/// counters in config.native order, each row-major over its dimensions; count: how many in
/// all. Appends one record per counter value, in config order, with id and counter_value set
/// and every other field zero. false (reported once on stderr): too few values, or an
/// expression that cannot be evaluated.
bool evaluate_config(const counter_config& config, const double* values, uint64_t count,
                     std::vector<rocprofiler_counter_record_t>& out);

/// How many native values a backend returns for the config (its natives' dimension sizes).
uint64_t native_value_count(const counter_config& config);

}  // namespace rocprof::core::counters
