#include "output_stage.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using rocprof::config::tool_settings;
using rocprof::tool::requested_writers;

TEST(OutputStage, DefaultFormatIsRocpd) {
  tool_settings settings;
  EXPECT_EQ(requested_writers(settings), std::vector<std::string>{"rocpd"});
}

TEST(OutputStage, FormatsAreLowerCasedDeduplicatedAndSummaryComesLast) {
  tool_settings settings;
  settings.output_formats = {"CSV", "JSON", "csv", "PFTRACE", "OTF2", "ROCPD"};
  settings.output_config = true;
  settings.summary = true;
  EXPECT_EQ(
      requested_writers(settings),
      (std::vector<std::string>{"config", "csv", "json", "pftrace", "otf2", "rocpd", "summary"}));
}

TEST(OutputStage, ConfigAloneStillWritesTheDefaultFormat) {
  tool_settings settings;
  settings.output_config = true;
  settings.summary_groups = {".*_API"};
  EXPECT_EQ(requested_writers(settings), (std::vector<std::string>{"config", "rocpd", "summary"}));
}

TEST(OutputStage, OutputOptionsExpandPlaceholdersPerProcess) {
  tool_settings settings;
  settings.output_path = "/tmp/out-%pid%";
  settings.output_file = "prefix_%pid%";
  settings.stats = true;
  settings.summary_units = "msec";
  settings.agent_index = "absolute";
  const auto options = rocprof::tool::make_output_options(settings);
  const std::string pid = std::to_string(::getpid());
  EXPECT_EQ(options.output_directory, "/tmp/out-" + pid);
  EXPECT_EQ(options.file_prefix, "prefix_" + pid);
  EXPECT_TRUE(options.stats);
  EXPECT_EQ(options.summary_units, rocprof::trace::summary_unit::msec);
  EXPECT_EQ(options.agent_index, rocprof::trace::agent_index_mode::absolute);
}

TEST(OutputStage, SettingsJsonIsValidJson) {
  tool_settings settings;
  settings.domains.insert("marker_trace");
  settings.output_formats = {"CSV"};
  const auto json = nlohmann::json::parse(rocprof::tool::settings_to_json(settings));
  EXPECT_TRUE(json.at("marker_api_trace").get<bool>());
  EXPECT_FALSE(json.at("kernel_trace").get<bool>());
  EXPECT_FALSE(json.at("kokkos_trace").get<bool>());
  EXPECT_EQ(json.at("output_format").at(0).get<std::string>(), "CSV");
}

}  // namespace
