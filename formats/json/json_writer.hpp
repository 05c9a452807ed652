#pragma once

#include <memory>

#include "rocprof/trace/writer.hpp"

namespace rocprof::formats::json {

// <prefix>_results.json in the "rocprofiler-sdk-tool" layout (rocprofv3-facts §5.1). Record
// arrays are streamed to part files beside the output as batches arrive and spliced in at
// finish(), so memory does not grow with the record count. Additions of ours under
// buffer_records: "cuda_api", "memory_set", "device_counter_sample".
std::unique_ptr<trace::writer> make_json_writer(const trace::output_options& options);

// <prefix>_config.json (--output-config, §5.2), from process_info.config_json, command and
// environment. Written even with no records.
std::unique_ptr<trace::writer> make_config_writer(const trace::output_options& options);

}  // namespace rocprof::formats::json
