// Every status code has a name and a string; every kind and listed operation has a name.
#include <gtest/gtest.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <set>
#include <string>

namespace {

TEST(status_names, every_status_has_a_distinct_name_and_a_string) {
  std::set<std::string> names;
  for (int s = 0; s < ROCPROFILER_STATUS_LAST; ++s) {
    const auto status = static_cast<rocprofiler_status_t>(s);
    const char* name = rocprofiler_get_status_name(status);
    const char* text = rocprofiler_get_status_string(status);
    ASSERT_NE(name, nullptr);
    ASSERT_NE(text, nullptr);
    EXPECT_EQ(std::string(name).rfind("ROCPROFILER_STATUS_", 0), 0u) << name;
    EXPECT_GT(std::string(text).size(), 3u) << name;
    EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
  }
  EXPECT_STREQ(rocprofiler_get_status_name(ROCPROFILER_STATUS_SUCCESS),
               "ROCPROFILER_STATUS_SUCCESS");
  EXPECT_STREQ(rocprofiler_get_status_name(ROCPROFILER_STATUS_ERROR_BUFFER_BUSY),
               "ROCPROFILER_STATUS_ERROR_BUFFER_BUSY");
  EXPECT_NE(rocprofiler_get_status_name(ROCPROFILER_STATUS_LAST), nullptr);
  EXPECT_NE(rocprofiler_get_status_string(static_cast<rocprofiler_status_t>(-3)), nullptr);
}

TEST(status_names, buffer_kinds_have_unique_names_and_operations_resolve) {
  std::set<std::string> names;
  int kinds = 0;
  rocprofiler_iterate_buffer_tracing_kinds(
      [](rocprofiler_buffer_tracing_kind_t kind, void* data) {
        const char* name = nullptr;
        uint64_t len = 0;
        EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_name(kind, &name, &len),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(len, std::string(name).size());
        static_cast<std::set<std::string>*>(data)->insert(name);
        rocprofiler_iterate_buffer_tracing_kind_operations(
            kind,
            [](rocprofiler_buffer_tracing_kind_t k, rocprofiler_tracing_operation_t op, void*) {
              const char* op_name = nullptr;
              EXPECT_EQ(
                  rocprofiler_query_buffer_tracing_kind_operation_name(k, op, &op_name, nullptr),
                  ROCPROFILER_STATUS_SUCCESS);
              EXPECT_NE(op_name, nullptr);
              return 0;
            },
            nullptr);
        return 0;
      },
      &names);
  kinds = static_cast<int>(names.size());
  EXPECT_EQ(kinds, ROCPROFILER_BUFFER_TRACING_LAST - 1);
  EXPECT_TRUE(names.count("MARKER_CORE_RANGE_API"));
  EXPECT_TRUE(names.count("CUDA_RUNTIME_API"));
  EXPECT_TRUE(names.count("MEMORY_SET"));
}

TEST(status_names, marker_operation_names) {
  const char* name = nullptr;
  ASSERT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,
                ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "roctxThreadRangeA");
  ASSERT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
                ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume, &name, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "roctxProfilerResume");
  ASSERT_EQ(
      rocprofiler_query_callback_tracing_kind_operation_name(
          ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, ROCPROFILER_CODE_OBJECT_LOAD, &name, nullptr),
      ROCPROFILER_STATUS_SUCCESS);
  EXPECT_STREQ(name, "CODE_OBJECT_LOAD");
  EXPECT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API, 99, &name, nullptr),
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND);
  EXPECT_EQ(
      rocprofiler_query_buffer_tracing_kind_name(ROCPROFILER_BUFFER_TRACING_LAST, &name, nullptr),
      ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND);
}

TEST(status_names, callback_kinds_iterate) {
  int count = 0;
  rocprofiler_iterate_callback_tracing_kinds(
      [](rocprofiler_callback_tracing_kind_t kind, void* data) {
        const char* name = nullptr;
        EXPECT_EQ(rocprofiler_query_callback_tracing_kind_name(kind, &name, nullptr),
                  ROCPROFILER_STATUS_SUCCESS);
        ++*static_cast<int*>(data);
        return 0;
      },
      &count);
  EXPECT_EQ(count, ROCPROFILER_CALLBACK_TRACING_LAST - 1);
}

TEST(status_names, version_and_clock) {
  uint32_t major = 0, minor = 99, patch = 99;
  EXPECT_EQ(rocprofiler_get_version(&major, &minor, &patch), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(10000 * major + 100 * minor + patch, static_cast<uint32_t>(ROCPROFILER_VERSION));
  rocprofiler_timestamp_t a = 0, b = 0;
  EXPECT_EQ(rocprofiler_get_timestamp(&a), ROCPROFILER_STATUS_SUCCESS);
  timespec ts{};
  clock_gettime(CLOCK_BOOTTIME, &ts);
  EXPECT_EQ(rocprofiler_get_timestamp(&b), ROCPROFILER_STATUS_SUCCESS);
  const uint64_t mid =
      static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  EXPECT_LE(a, mid);
  EXPECT_LE(mid, b);
}

}  // namespace
