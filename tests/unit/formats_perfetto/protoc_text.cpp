#include "protoc_text.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <system_error>

namespace rocprof::test {

std::pair<int, std::string> run_command(const std::string& command) {
  std::string output;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, output};
  std::array<char, 65536> buffer{};
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {status, output};
}

bool protoc_available() {
  return std::string(ROCPROF_PROTOC).find("NOTFOUND") == std::string::npos;
}

bool decode_trace(const std::string& file, std::vector<decoded_packet>* packets,
                  std::string* error) {
  const std::string dir = ROCPROF_PERFETTO_PROTO_DIR;
  const std::string command = std::string(ROCPROF_PROTOC) + " --decode=perfetto.protos.Trace -I " +
                              dir + " " + dir + "/perfetto_trace.proto < '" + file + "' 2>&1";
  const auto [status, text] = run_command(command);
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

namespace {
// Removes this test process's scratch directory (rocprof_pft_<pid>) when the tests end.
class remove_scratch : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(
        std::filesystem::temp_directory_path() / ("rocprof_pft_" + std::to_string(::getpid())), ec);
  }
};
const auto* const scratch_cleanup = ::testing::AddGlobalTestEnvironment(new remove_scratch);
}  // namespace
