// Perfetto trace writer: <prefix>_results.pftrace (--output-format pftrace).
//
// Streams TracePackets through our own protobuf encoder (proto_encoder.hpp): memory is one chunk
// plus small per-track state, whatever the record count. Track uuids, flow ids and the packet
// sequence id are derived from (hostname, pid), so per-process files can be concatenated
// (`cat a.pftrace b.pftrace`) into one valid trace. Track layout and names follow rocprofv3
// (rocprofv3-facts.md §6); docs in formats/perfetto/README.md.
#pragma once

#include <cstddef>
#include <memory>

#include "rocprof/trace/writer.hpp"

namespace rocprof::trace {

struct perfetto_writer_options {
  bool debug_annotations = true;  // false: slices carry no args (smaller files; benchmarks)
  size_t chunk_size = size_t{1} << 20;
};

std::unique_ptr<writer> make_perfetto_writer(const output_options& options);
std::unique_ptr<writer> make_perfetto_writer(const output_options& options,
                                             const perfetto_writer_options& perfetto_options);

}  // namespace rocprof::trace
