#include "list_avail.hpp"

#include <fstream>
#include <map>
#include <set>

namespace rocprof::cli {
namespace {

std::string field_value(const std::string& line) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return "";
  const size_t start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? "" : line.substr(start);
}

}  // namespace

void print_list_avail(std::ostream& out, const std::string& cpuinfo_path) {
  // One CPU agent per physical package, as the profiler core numbers them.
  std::ifstream in(cpuinfo_path);
  std::map<std::string, std::string> package_model;
  std::map<std::string, int> package_threads;
  std::string model = "unknown CPU";
  std::string package = "0";
  for (std::string line; std::getline(in, line);) {
    const std::string key = line.substr(0, line.find_first_of("\t:"));
    if (key == "model name") model = field_value(line);
    if (key == "physical id") package = field_value(line);
    if (line.empty() || in.peek() == EOF) {
      if (!model.empty()) {
        package_model[package] = model;
        ++package_threads[package];
      }
      package = "0";
    }
  }
  out << "CPU agents:\n";
  int index = 0;
  for (const auto& [id, name] : package_model) {
    out << "  CPU:" << index++ << "\n    Name: " << name
        << "\n    Logical processors: " << package_threads[id] << "\n";
  }
  if (package_model.empty()) out << "  (none found in " << cpuinfo_path << ")\n";
  out << "GPU agents and counters: provided by the CUDA backend when it is present and a GPU is "
         "visible; this build lists none here yet.\n";
}

}  // namespace rocprof::cli
