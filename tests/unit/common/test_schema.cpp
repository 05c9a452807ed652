#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "rocprof/config/schema.hpp"

using namespace rocprof::config;

TEST(Schema, KeysLongNamesShortNamesAndEnvVariablesAreUnique) {
  std::set<std::string_view> keys, names, shorts, envs;
  for (const auto& spec : schema()) {
    EXPECT_TRUE(keys.insert(spec.key).second) << spec.key;
    if (!spec.long_name.empty()) {
      EXPECT_TRUE(names.insert(spec.long_name).second) << spec.key;
    }
    for (auto alias : words(spec.aliases)) {
      EXPECT_TRUE(names.insert(alias).second) << alias;
    }
    if (!spec.short_name.empty()) {
      EXPECT_TRUE(shorts.insert(spec.short_name).second) << spec.key;
    }
    if (!spec.env.empty()) {
      EXPECT_TRUE(envs.insert(spec.env).second) << spec.env;
    }
  }
}

TEST(Schema, RowsAreConsistent) {
  for (const auto& spec : schema()) {
    SCOPED_TRACE(std::string(spec.key));
    // A job key is the option's long name with '-' turned into '_'.
    std::string expected(spec.long_name);
    for (char& c : expected)
      c = c == '-' ? '_' : c;
    if (!spec.long_name.empty()) {
      EXPECT_EQ(expected, spec.key);
    }
    if (spec.type == value_type::choice || spec.type == value_type::choice_list) {
      ASSERT_FALSE(spec.choices.empty());
      const auto choices = words(spec.choices);
      for (auto def : {spec.default_value, spec.cli_default}) {
        if (def.empty() || def == "none") continue;
        EXPECT_NE(std::find(choices.begin(), choices.end(), def), choices.end()) << def;
      }
    }
    if (spec.form == env_form::flag || spec.form == env_form::negated_flag) {
      EXPECT_EQ(spec.type, value_type::boolean);
      EXPECT_FALSE(spec.env.empty());
    }
    if (spec.form == env_form::joined) {
      EXPECT_FALSE(spec.separator.empty());
    }
    if (spec.scope == option_scope::cli_and_file || spec.scope == option_scope::cli_only) {
      EXPECT_FALSE(spec.long_name.empty());
      if (!spec.hidden) {
        EXPECT_FALSE(spec.group.empty());
      }
    }
  }
}

TEST(Schema, LookupByKey) {
  ASSERT_NE(find_option("kernel_trace"), nullptr);
  EXPECT_EQ(option("kernel_trace").env, "ROCPROF_KERNEL_TRACE");
  EXPECT_EQ(option("cuda_runtime_trace").env, "ROCPROF_CUDA_RUNTIME_API_TRACE");
  EXPECT_EQ(option("cuda_driver_trace").env, "ROCPROF_CUDA_DRIVER_API_TRACE");
  EXPECT_EQ(option("kokkos_trace").env, "ROCPROF_KOKKOS_TRACE");
  EXPECT_EQ(find_option("no_such_key"), nullptr);
  EXPECT_THROW(option("no_such_key"), std::logic_error);
}

TEST(Schema, WordsSplitsOnSpaces) {
  const auto split = words("  csv json  pftrace ");
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[0], "csv");
  EXPECT_EQ(split[2], "pftrace");
  EXPECT_TRUE(words("").empty());
}
