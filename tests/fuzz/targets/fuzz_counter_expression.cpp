// The counter expression language (libprofiler/counters): any text parses or fails with an
// offset inside the text; a parsed expression's canonical form parses again to the same form.
#include "fuzz_text.hpp"
#include "rocprof/counters/expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using rocprof::fuzz::broken;
  const std::string text = rocprof::fuzz::text_of(data, size);
  auto parsed = rocprof::counters::parse_expression(text);
  if (!parsed) {
    const size_t offset = parsed.failure().offset;
    if (offset != std::string::npos && offset > text.size()) broken("an error offset past the text");
    return 0;
  }
  const std::string canonical = parsed.value().canonical();
  (void)parsed.value().references();
  auto again = rocprof::counters::parse_expression(canonical);
  if (!again) {
    // The canonical form adds parentheses; at the nesting limit that may be one level too many.
    if (again.failure().message.find("nest") == std::string::npos &&
        canonical.size() <= rocprof::counters::max_expression_length) {
      broken("the canonical form does not parse");
    }
    return 0;
  }
  if (again.value().canonical() != canonical) broken("the canonical form is not stable");
  return 0;
}
