// Output-path placeholders. The input is the template, then after a NUL byte the value of an
// environment variable the template may name (%env{ROCPROF_FUZZ_ENV}%), so that values holding
// placeholders (expanded again, up to 16 rounds) are explored too. Never throws; the result
// never passes the expansion limit unless the template itself did.
#include <cstdlib>

#include "fuzz_text.hpp"
#include "rocprof/common/placeholders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocprof::common;
  const std::string input = rocprof::fuzz::text_of(data, size);
  const size_t nul = input.find('\0');
  const std::string text = input.substr(0, nul);
  const std::string value = nul == std::string::npos ? std::string() : input.substr(nul + 1);
  ::setenv("ROCPROF_FUZZ_ENV", value.substr(0, value.find('\0')).c_str(), 1);
  static const placeholder_context context = [] {
    placeholder_context c;
    c.argv = {"/usr/bin/app", "--", "-n", "4", "./data/in.txt"};
    c.pid = 4242;
    c.ppid = 1;
    c.hostname = "host";
    c.cwd = "/work";
    c.launch_date = "2026-01-01";
    c.launch_time = "2026-01-01_00.00";
    return c;
  }();
  const std::string out = expand_placeholders(text, context);
  if (out.size() > k_max_expanded_length && out.size() > text.size())
    rocprof::fuzz::broken("expansion grew past its limit");
  (void)placeholder_problem(text, context);
  return 0;
}
