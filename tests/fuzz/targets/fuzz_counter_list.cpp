// Counter lists ("pmc: A B,C" lines, --pmc values, input-file pmc lines) and the counter-name
// rule the CLI and the tool share: names come out non-empty, each once, and the rule decides
// every one of them without throwing.
#include <unordered_set>

#include "fuzz_text.hpp"
#include "rocprof/config/values.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto names = rocprof::config::parse_pmc_line(rocprof::fuzz::text_of(data, size));
  std::unordered_set<std::string> seen;
  for (const auto& name : names) {
    if (name.empty()) rocprof::fuzz::broken("an empty counter name");
    if (!seen.insert(name).second) rocprof::fuzz::broken("a duplicate counter name");
    (void)rocprof::config::counter_name_problem(name);
  }
  return 0;
}
