// --collection-period: the CLI's conversion (first byte picks the unit) and the tool's parse of
// what the CLI writes must agree exactly, stay within the limit, and never wrap around.
#include "fuzz_text.hpp"
#include "rocprof/config/collection_period.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocprof::config;
  using rocprof::fuzz::broken;
  if (size == 0) return 0;
  static const char* const units[] = {"hour", "min", "sec", "msec", "usec", "nsec"};
  const std::string text = rocprof::fuzz::text_of(data + 1, size - 1);
  const auto converted = parse_period_in_unit(text, units[data[0] % 6]);
  if (converted.period) {
    const auto& p = *converted.period;
    if (p.delay_ns > k_max_period_ns || p.duration_ns > k_max_period_ns)
      broken("a period past the limit");
    const auto back = parse_period_ns(format_period_ns(p));
    if (!back.period || back.period->delay_ns != p.delay_ns ||
        back.period->duration_ns != p.duration_ns || back.period->repeat != p.repeat) {
      broken("the tool reads the CLI's period differently");
    }
  } else if (converted.error.empty()) {
    broken("an error without a message");
  }
  const auto direct = parse_period_ns(text);
  if (direct.period && (direct.period->delay_ns > k_max_period_ns ||
                        direct.period->duration_ns > k_max_period_ns)) {
    broken("the tool took a period past the limit");
  }
  return 0;
}
