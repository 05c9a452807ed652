#include "metric_list.hpp"

#include <fstream>
#include <map>
#include <sstream>

namespace counters_test {

std::vector<base_metric> chip_metrics(const std::string& chip) {
  std::ifstream in(std::string(ROCPROF_TEST_DATA_DIR) +
                   "/nvidia_metrics/range_profiler_base_metrics.tsv");
  std::vector<base_metric> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name, type, chips;
    std::getline(fields, name, '\t');
    std::getline(fields, type, '\t');
    std::getline(fields, chips, '\t');
    if (chips == "*" || ("," + chips + ",").find("," + chip + ",") != std::string::npos)
      out.push_back({name, type});
  }
  return out;
}

std::vector<rocprof::counters::base_counter> chip_base_counters(const std::string& chip) {
  namespace rc = rocprof::counters;
  std::vector<rc::base_counter> out;
  for (const auto& m : chip_metrics(chip)) {
    std::vector<std::string> suffixes;
    if (m.type == "COUNTER") suffixes = {".sum", ".avg", ".min", ".max"};
    if (m.type == "RATIO") suffixes = {".ratio", ".pct"};
    if (m.type == "THROUGHPUT") suffixes = {".avg.pct_of_peak_sustained_elapsed"};
    const auto unit_end = m.name.find("__");
    for (const auto& s : suffixes) {
      rc::base_counter c;
      c.name = m.name + s;
      c.block = unit_end == std::string::npos ? std::string() : m.name.substr(0, unit_end);
      c.description = m.type + " " + m.name;
      c.accumulates_per_cycle = m.name == "sm__warps_active" || m.name == "smsp__warps_active";
      out.push_back(std::move(c));
    }
  }
  out.push_back(rc::agent_constant("simd_count", 132 * 4, "SM sub-partitions"));
  out.push_back(rc::agent_constant("simd_per_cu", 4, "SM sub-partitions per SM"));
  out.push_back(rc::agent_constant("array_count", 8, "GPCs"));
  out.push_back(rc::agent_constant("simd_arrays_per_engine", 1, "one array per GPC"));
  out.push_back(rc::agent_constant("wave_front_size", 32, "warp size"));
  return out;
}

std::string chip_of(const std::string& architecture) {
  static const std::map<std::string, std::string> chips = {
      {"sm_80", "GA100"}, {"sm_86", "GA102"},  {"sm_89", "AD102"},
      {"sm_90", "GH100"}, {"sm_100", "GB100"}, {"sm_120", "GB202"}};
  const auto it = chips.find(architecture);
  return it == chips.end() ? std::string() : it->second;
}

}  // namespace counters_test
