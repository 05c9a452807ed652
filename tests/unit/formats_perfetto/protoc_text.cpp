#include "protoc_text.hpp"

#include <sstream>

#include "rocprof/test_support/test_env.hpp"

namespace rocprof::test {

namespace ts = rocprof::test_support;

bool protoc_available() {
  return ts::have_program(ROCPROF_PROTOC);
}

bool decode_trace(const std::string& file, std::vector<decoded_packet>* packets,
                  std::string* error) {
  const std::string dir = ROCPROF_PERFETTO_PROTO_DIR;
  const std::string command = std::string(ROCPROF_PROTOC) + " --decode=perfetto.protos.Trace -I " +
                              dir + " " + dir + "/perfetto_trace.proto < '" + file + "' 2>&1";
  const auto [status, text] = ts::run(command);
  if (status != 0) {
    *error = text;
    return false;
  }
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> path;
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    const std::string body = line.substr(first);
    if (body == "}") {
      if (!path.empty()) path.pop_back();
      continue;
    }
    if (body.size() > 2 && body.compare(body.size() - 2, 2, " {") == 0) {
      const std::string name = body.substr(0, body.size() - 2);
      if (path.empty() && name == "packet") packets->emplace_back();
      path.push_back(name);
      continue;
    }
    const size_t colon = body.find(": ");
    if (colon == std::string::npos || packets->empty()) continue;
    std::string key;
    for (size_t i = 1; i < path.size(); ++i)
      key += path[i] + ".";
    key += body.substr(0, colon);
    packets->back().fields.emplace(key, body.substr(colon + 2));
  }
  return true;
}

}  // namespace rocprof::test
