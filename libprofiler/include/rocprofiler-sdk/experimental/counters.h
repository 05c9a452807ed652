// Counter definitions supplied at run time (what rocprofv3 -E uses).
#pragma once

#include "rocprofiler-sdk/agent.h"
#include "rocprofiler-sdk/defines.h"
#include "rocprofiler-sdk/fwd.h"

ROCPROFILER_EXTERN_C_INIT

/// Loads counter definitions from `yaml` (size bytes, the definitions schema:
/// "rocprofiler-sdk: counters-schema-version: 1, counters: [...]"). With
/// ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION they are added to the shipped definitions (a
/// name defined in both takes this text's definition for the architectures this text names);
/// with ROCPROFILER_COUNTER_FLAG_NONE they replace them. Must come before the first
/// rocprofiler_iterate_agent_supported_counters (catalogues are built from the definitions at
/// that time). Each problem is printed on stderr as "extra counter definitions:line:column:
/// counter 'NAME': ..." with the position in its expression; a text with any error is not
/// loaded (rocprofv3 checks -E files before the application starts, naming the file).
/// Returns INVALID_ARGUMENT (yaml NULL with a size, unknown flag or a text with errors),
/// ERROR when definitions were already loaded or a catalogue was already built.
ROCPROFILER_API rocprofiler_status_t rocprofiler_load_counter_definition(
    const char* yaml, size_t size, rocprofiler_counter_flag_t flags);

ROCPROFILER_EXTERN_C_FINI
