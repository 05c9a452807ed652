// The -i input-file reader (txt / YAML / JSON), chosen at build time by FUZZ_INPUT_EXTENSION:
// any text either gives jobs or a usage_error naming the file; no other exception, no crash, no
// hang, no unbounded memory (YAML aliases, nesting).
#include "fuzz_text.hpp"
#include "input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string name = std::string("fuzz.") + FUZZ_INPUT_EXTENSION;
  try {
    const auto input = rocprof::cli::parse_input_text(name, rocprof::fuzz::text_of(data, size));
    if (input.jobs.empty()) rocprof::fuzz::broken("an input file without jobs was accepted");
  } catch (const rocprof::cli::usage_error& error) {
    if (std::string(error.what()).find(name) == std::string::npos)
      rocprof::fuzz::broken("a usage error that does not name the file");
  }
  return 0;
}
