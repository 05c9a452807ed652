// Randomised inputs for the three parsers (command line, input files, placeholders): each must
// either succeed or report a usage error; no other exception, crash or endless loop. The seed is
// fixed so a failure reproduces.
#include <gtest/gtest.h>

#include <random>

#include "command_line.hpp"
#include "input_file.hpp"
#include "rocprof/common/placeholders.hpp"
#include "rocprof/config/iteration_range.hpp"
#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"
#include "rocprof/test_support/test_env.hpp"

using namespace rocprof::cli;
using rocprof::test_support::temp_dir;

namespace {

std::string mutate(std::string text, std::mt19937& random) {
  const std::string alphabet = "{}[]:,-\"' \n\t#%$&*!|>0123456789abcxyz_";
  const int edits = 1 + static_cast<int>(random() % 4);
  for (int i = 0; i < edits && !text.empty(); ++i) {
    const size_t at = random() % text.size();
    switch (random() % 3) {
      case 0:
        text[at] = alphabet[random() % alphabet.size()];
        break;
      case 1:
        text.erase(at, 1 + random() % 3);
        break;
      default:
        text.insert(at, 1, alphabet[random() % alphabet.size()]);
        break;
    }
  }
  return text;
}

}  // namespace

TEST(Robustness, InputFilesFailOnlyWithUsageErrors) {
  temp_dir dir;
  const std::vector<std::pair<std::string, std::string>> seeds = {
      {"jobs.yaml",
       "jobs:\n  - kernel_trace: true\n    pmc: [A, B]\n    output_format: [csv]\n"
       "    pmc_groups: [[A], [B]]\n    pmc_group_interval: 2\n    kernel_iteration_range: "
       "'[1-2]'\n"},
      {"jobs.json",
       R"({"jobs": [{"kernel_trace": true, "pmc": ["A"], "perfetto_buffer_size": 64,
                    "summary_groups": ["KERNEL.*"], "output_file": "x"}]})"},
      {"counters.txt", "pmc: A B\n# comment\npmc: C, D\n"},
  };
  std::mt19937 random(20260101);
  size_t accepted = 0;
  for (int round = 0; round < 600; ++round) {
    const auto& [name, text] = seeds[static_cast<size_t>(round) % seeds.size()];
    const auto file = dir.write(name, mutate(text, random));
    try {
      read_input_file(file);
      ++accepted;
    } catch (const usage_error& error) {
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
    } catch (const std::exception& other) {
      ADD_FAILURE() << "unexpected exception for " << file << ": " << other.what();
    }
  }
  EXPECT_GT(accepted, 0u);  // mutations are not all fatal: the parsers were really exercised
}

TEST(Robustness, CommandLinesFailOnlyWithUsageErrors) {
  std::vector<std::string> tokens = {"no", "yes", "0x10", "-1", "csv", "[1-2]", "--", "x", ""};
  for (const auto& spec : rocprof::config::schema()) {
    if (spec.long_name.empty()) continue;
    tokens.push_back("--" + std::string(spec.long_name));
    tokens.push_back("--" + std::string(spec.long_name) + "=on");
    if (!spec.short_name.empty()) tokens.push_back("-" + std::string(spec.short_name));
  }
  std::mt19937 random(7);
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> args;
    const size_t length = random() % 6;
    for (size_t i = 0; i < length; ++i)
      args.push_back(tokens[random() % tokens.size()]);
    try {
      parse_command_line(args);
    } catch (const usage_error&) {
    } catch (const std::exception& other) {
      std::string line;
      for (const auto& arg : args)
        line += arg + " ";
      ADD_FAILURE() << "unexpected exception for '" << line << "': " << other.what();
    }
  }
}

TEST(Robustness, CounterSyntaxesNeverThrow) {
  const std::string alphabet = "[]-, 0123456789ax:device=.#pmc";
  std::mt19937 random(11);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const size_t length = random() % 20;
    for (size_t i = 0; i < length; ++i)
      text += alphabet[random() % alphabet.size()];
    EXPECT_NO_THROW(rocprof::config::parse_iteration_range(text)) << text;
    EXPECT_NO_THROW(rocprof::config::parse_pmc_line(text)) << text;
    EXPECT_NO_THROW(rocprof::config::parse_counter_request(text)) << text;
  }
}

TEST(Robustness, PlaceholdersAlwaysTerminate) {
  rocprof::common::placeholder_context context;
  context.argv = {"/bin/app", "a"};
  context.pid = 1;
  context.hostname = "h";
  const std::string alphabet = "%{}$envENVqargvtpidhostnamejobrs0123456789_/A-Z";
  std::mt19937 random(99);
  ::setenv("ROCPROF_FUZZ_SELF", "%env{ROCPROF_FUZZ_SELF}%x", 1);  // expands into itself
  EXPECT_NO_THROW(rocprof::common::expand_placeholders("%env{ROCPROF_FUZZ_SELF}%", context));
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const size_t length = random() % 24;
    for (size_t i = 0; i < length; ++i)
      text += alphabet[random() % alphabet.size()];
    EXPECT_NO_THROW(rocprof::common::expand_placeholders(text, context)) << text;
  }
}
