// Runs protoc on a Perfetto file and splits its text output into packets of (path, value) pairs,
// so tests count slices, tracks and flows from what an independent reader decoded.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rocprof::test {

// True when protoc was found (a missing reader fails the test: ts::missing_reader).
bool protoc_available();

// One decoded TracePacket: "track_event.type" -> "TYPE_SLICE_BEGIN", ... Repeated fields keep
// every value in order.
struct decoded_packet {
  std::multimap<std::string, std::string> fields;
  bool has(const std::string& path) const { return fields.count(path) != 0; }
  std::string get(const std::string& path) const {
    const auto it = fields.find(path);
    return it != fields.end() ? it->second : std::string{};
  }
  size_t count(const std::string& path) const { return fields.count(path); }
};

// Decodes `file` with `protoc --decode=perfetto.protos.Trace`. On failure returns false and
// puts protoc's output in *error.
bool decode_trace(const std::string& file, std::vector<decoded_packet>* packets,
                  std::string* error);

}  // namespace rocprof::test
