#include <gtest/gtest.h>

#include "command_line.hpp"
#include "rocprof/config/schema.hpp"

using namespace rocprof::cli;
using rocprof::config::value_type;

namespace {

command_line parse(std::vector<std::string> args) {
  return parse_command_line(args);
}

// A valid word for each non-boolean option, by type.
std::vector<std::string> sample_words(const rocprof::config::option_spec& spec) {
  switch (spec.type) {
    case value_type::integer:
      return {"0x20"};
    case value_type::choice:
    case value_type::choice_list:
      return {std::string(rocprof::config::words(spec.choices).back())};
    case value_type::string_list:
      return {"first", "second"};
    default:
      return {"some_text"};
  }
}

}  // namespace

// Every option of the schema is accepted by its long name, its short name and its aliases.
TEST(CommandLine, EveryOptionParses) {
  for (const auto& spec : rocprof::config::schema()) {
    if (spec.long_name.empty() || spec.key == "version") continue;
    std::vector<std::string> names = {"--" + std::string(spec.long_name)};
    if (!spec.short_name.empty()) names.push_back("-" + std::string(spec.short_name));
    for (auto alias : rocprof::config::words(spec.aliases))
      names.push_back("--" + std::string(alias));
    for (const auto& name : names) {
      SCOPED_TRACE(name);
      const std::string key(spec.key);
      if (spec.type == value_type::boolean) {
        EXPECT_TRUE(parse({name}).options.flag(key));
        EXPECT_FALSE(parse({name, "no"}).options.flag(key));
        EXPECT_TRUE(parse({name, "no"}).options.has(key));
        continue;
      }
      auto args = std::vector<std::string>{name};
      const auto words = sample_words(spec);
      args.insert(args.end(), words.begin(), words.end());
      const auto line = parse(args);
      if (key == "pmc") {
        ASSERT_EQ(line.pmc_passes.size(), 1u);
        EXPECT_EQ(line.pmc_passes[0], words);
        continue;
      }
      ASSERT_TRUE(line.options.has(key));
      if (spec.type == value_type::integer) {
        EXPECT_EQ(line.options.number(key), std::optional<uint64_t>(32));
      } else if (spec.type == value_type::string_list || spec.type == value_type::choice_list) {
        EXPECT_EQ(line.options.list(key), words);
      } else {
        EXPECT_EQ(line.options.text(key), std::optional<std::string>(words[0]));
      }
    }
  }
}

TEST(CommandLine, BooleanValueSyntax) {
  EXPECT_TRUE(parse({"--kernel-trace"}).options.flag("kernel_trace"));
  EXPECT_FALSE(parse({"--kernel-trace=False"}).options.flag("kernel_trace"));
  EXPECT_FALSE(parse({"--hsa-trace", "no"}).options.flag("hsa_trace"));
  EXPECT_FALSE(parse({"--hsa-trace=0"}).options.flag("hsa_trace"));
  EXPECT_TRUE(parse({"--hsa-trace", "YES"}).options.flag("hsa_trace"));
  EXPECT_TRUE(parse({"--stats=on"}).options.flag("stats"));
  EXPECT_FALSE(parse({"-S", "off"}).options.flag("summary"));
  // The last occurrence wins.
  EXPECT_FALSE(parse({"--kernel-trace", "--kernel-trace=n"}).options.flag("kernel_trace"));
  EXPECT_TRUE(parse({"--kernel-trace=f", "--kernel-trace"}).options.flag("kernel_trace"));
  // Unset stays unset.
  EXPECT_FALSE(parse({"--stats"}).options.has("kernel_trace"));
  EXPECT_THROW(parse({"--kernel-trace", "maybe"}), usage_error);
  EXPECT_THROW(parse({"--kernel-trace=2"}), usage_error);
}

TEST(CommandLine, ChoicesIntegersAndLists) {
  EXPECT_EQ(parse({"-f", "CSV", "json"}).options.list("output_format"),
            (std::vector<std::string>{"csv", "json"}));
  EXPECT_THROW(parse({"-f", "xml"}), usage_error);
  EXPECT_EQ(parse({"-u", "msec"}).options.text("summary_units"),
            std::optional<std::string>("msec"));
  EXPECT_THROW(parse({"--summary-units", "minutes"}), usage_error);
  EXPECT_THROW(parse({"--pc-sampling-method", "random"}), usage_error);
  EXPECT_EQ(parse({"--att-buffer-size", "0x10000000"}).options.number("att_buffer_size"),
            std::optional<uint64_t>(0x10000000));
  EXPECT_THROW(parse({"--perfetto-buffer-size", "big"}), usage_error);
  EXPECT_THROW(parse({"-o"}), usage_error);  // missing value
}

TEST(CommandLine, RepeatedPmcFlagsArePasses) {
  const auto line = parse({"--pmc", "A", "B", "--kernel-trace", "--pmc", "C"});
  ASSERT_EQ(line.pmc_passes.size(), 2u);
  EXPECT_EQ(line.pmc_passes[0], (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(line.pmc_passes[1], (std::vector<std::string>{"C"}));
  EXPECT_TRUE(line.options.flag("kernel_trace"));
}

TEST(CommandLine, SplitsAtTheFirstDoubleDash) {
  const auto line = parse({"--kernel-trace", "--", "./app", "--kernel-trace", "--", "-x"});
  EXPECT_EQ(line.app, (std::vector<std::string>{"./app", "--kernel-trace", "--", "-x"}));
  EXPECT_TRUE(parse({"--kernel-trace"}).app.empty());
}

TEST(CommandLine, UnknownAndAbbreviatedOptionsAreErrors) {
  EXPECT_THROW(parse({"--bogus"}), usage_error);
  EXPECT_THROW(parse({"--kernel"}), usage_error);  // no prefix matching
  EXPECT_THROW(parse({"stray"}), usage_error);     // the app must follow "--"
}

TEST(CommandLine, HelpAndVersion) {
  EXPECT_TRUE(parse({"--help"}).show_help);
  EXPECT_TRUE(parse({"-v"}).show_version);
  const std::string help = help_text();
  for (const char* group :
       {"I/O options", "Aggregate tracing options", "Basic tracing options",
        "Granular tracing options", "Counter collection options", "PC sampling options",
        "Post-processing tracing options", "Summary options", "Kernel naming options",
        "Filtering options", "Perfetto-specific options", "Display options", "Advanced options",
        "Advanced Thread Trace (ATT) options", "--cuda-trace"}) {
    EXPECT_NE(help.find(group), std::string::npos) << group;
  }
  EXPECT_EQ(help.find("--echo"), std::string::npos);  // hidden
  EXPECT_EQ(help.find("--benchmark-mode"), std::string::npos);
}
