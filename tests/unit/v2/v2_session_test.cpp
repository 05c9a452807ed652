// The v2 library's life cycle, sessions, filters and buffers: the documented statuses of
// correct use and of misuse, and a text for every status.
#include <gtest/gtest.h>
#include <rocprofiler/v2/rocprofiler.h>
#include <time.h>

#include <cstring>
#include <string>

#include "v2_test_support.hpp"

namespace {

class v2_session : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(rocprofiler_initialize(), ROCPROFILER_STATUS_SUCCESS); }
  void TearDown() override { rocprofiler_finalize(); }

  rocprofiler_session_id_t new_session() {
    rocprofiler_session_id_t id{};
    EXPECT_EQ(rocprofiler_create_session(ROCPROFILER_NONE_REPLAY_MODE, &id),
              ROCPROFILER_STATUS_SUCCESS);
    return id;
  }
  rocprofiler_buffer_id_t new_buffer(rocprofiler_session_id_t s, size_t size = 0x9999) {
    rocprofiler_buffer_id_t id{};
    EXPECT_EQ(rocprofiler_create_buffer(s, v2_test::collect, size, &id),
              ROCPROFILER_STATUS_SUCCESS);
    return id;
  }
  rocprofiler_filter_id_t kernel_filter(rocprofiler_session_id_t s) {
    rocprofiler_filter_id_t id{};
    EXPECT_EQ(rocprofiler_create_filter(s, ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION,
                                        rocprofiler_filter_data_t{}, 0, &id,
                                        rocprofiler_filter_property_t{}),
              ROCPROFILER_STATUS_SUCCESS);
    return id;
  }
};

TEST(v2_library, versions_and_status_texts) {
  EXPECT_EQ(rocprofiler_version_major(), 9u);
  EXPECT_EQ(rocprofiler_version_minor(), 0u);
  const std::string unknown = rocprofiler_error_str(static_cast<rocprofiler_status_t>(-1000));
  for (int code = ROCPROFILER_STATUS_ERROR_MISMATCHED_EXTERNAL_CORRELATION_ID; code <= 0; ++code) {
    const char* text = rocprofiler_error_str(static_cast<rocprofiler_status_t>(code));
    ASSERT_NE(text, nullptr) << code;
    EXPECT_NE(unknown, text) << "status " << code << " has no text";
  }
  EXPECT_STREQ(rocprofiler_error_str(ROCPROFILER_STATUS_SUCCESS), "success");
}

TEST(v2_library, timestamps_are_on_the_boot_clock) {
  rocprofiler_timestamp_t t{};
  timespec before{}, after{};
  clock_gettime(CLOCK_BOOTTIME, &before);
  ASSERT_EQ(rocprofiler_get_timestamp(&t), ROCPROFILER_STATUS_SUCCESS);
  clock_gettime(CLOCK_BOOTTIME, &after);
  const auto ns = [](const timespec& ts) {
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
  };
  EXPECT_GE(t.value, ns(before));
  EXPECT_LE(t.value, ns(after));
  EXPECT_EQ(rocprofiler_get_timestamp(nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
}

TEST(v2_library, calls_before_initialize_and_twice) {
  rocprofiler_session_id_t s{};
  EXPECT_EQ(rocprofiler_create_session(ROCPROFILER_NONE_REPLAY_MODE, &s),
            ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(rocprofiler_finalize(), ROCPROFILER_STATUS_ERROR_NOT_INITIALIZED);
  ASSERT_EQ(rocprofiler_initialize(), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_initialize(), ROCPROFILER_STATUS_ERROR_ALREADY_INITIALIZED);
  EXPECT_EQ(rocprofiler_finalize(), ROCPROFILER_STATUS_SUCCESS);
  // Initialising again after finalize starts afresh.
  ASSERT_EQ(rocprofiler_initialize(), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_finalize(), ROCPROFILER_STATUS_SUCCESS);
}

TEST_F(v2_session, replay_mode_and_unknown_sessions) {
  rocprofiler_session_id_t s{};
  EXPECT_EQ(rocprofiler_create_session(static_cast<rocprofiler_replay_mode_t>(0), &s),
            ROCPROFILER_STATUS_ERROR_INCORRECT_REPLAY_MODE);
  EXPECT_EQ(rocprofiler_create_session(ROCPROFILER_NONE_REPLAY_MODE, nullptr),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  const rocprofiler_session_id_t unknown{424242};
  EXPECT_EQ(rocprofiler_start_session(unknown), ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_terminate_session(unknown), ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_destroy_session(unknown), ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
}

TEST_F(v2_session, start_needs_a_filter_with_a_buffer) {
  const rocprofiler_session_id_t s = new_session();
  EXPECT_EQ(rocprofiler_start_session(s), ROCPROFILER_STATUS_ERROR_SESSION_MISSING_FILTER);
  const rocprofiler_filter_id_t f = kernel_filter(s);
  EXPECT_EQ(rocprofiler_start_session(s), ROCPROFILER_STATUS_ERROR_SESSION_MISSING_BUFFER);
  EXPECT_EQ(rocprofiler_set_filter_buffer(s, f, rocprofiler_buffer_id_t{999}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  const rocprofiler_buffer_id_t b = new_buffer(s);
  EXPECT_EQ(rocprofiler_set_filter_buffer(s, rocprofiler_filter_id_t{999}, b),
            ROCPROFILER_STATUS_ERROR_FILTER_NOT_FOUND);
  ASSERT_EQ(rocprofiler_set_filter_buffer(s, f, b), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_terminate_session(s), ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE);
  ASSERT_EQ(rocprofiler_start_session(s), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_start_session(s), ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION);
  // An active session's filters are fixed.
  rocprofiler_filter_id_t more{};
  EXPECT_EQ(rocprofiler_create_filter(s, ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION,
                                      rocprofiler_filter_data_t{}, 0, &more,
                                      rocprofiler_filter_property_t{}),
            ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION);
  EXPECT_EQ(rocprofiler_terminate_session(s), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_terminate_session(s), ROCPROFILER_STATUS_ERROR_SESSION_NOT_ACTIVE);
  EXPECT_EQ(rocprofiler_destroy_filter(s, f), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_destroy_filter(s, f), ROCPROFILER_STATUS_ERROR_FILTER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_destroy_session(s), ROCPROFILER_STATUS_SUCCESS);
}

TEST_F(v2_session, one_active_session_at_a_time) {
  const rocprofiler_session_id_t a = new_session();
  const rocprofiler_session_id_t b = new_session();
  for (rocprofiler_session_id_t s : {a, b})
    ASSERT_EQ(rocprofiler_set_filter_buffer(s, kernel_filter(s), new_buffer(s)),
              ROCPROFILER_STATUS_SUCCESS);
  ASSERT_EQ(rocprofiler_start_session(a), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_start_session(b), ROCPROFILER_STATUS_ERROR_HAS_ACTIVE_SESSION);
  // Destroying the active session ends it.
  EXPECT_EQ(rocprofiler_destroy_session(a), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_start_session(b), ROCPROFILER_STATUS_SUCCESS);
}

TEST_F(v2_session, buffer_misuse) {
  const rocprofiler_session_id_t s = new_session();
  rocprofiler_buffer_id_t b{};
  EXPECT_EQ(rocprofiler_create_buffer(s, nullptr, 4096, &b),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  EXPECT_EQ(rocprofiler_create_buffer(s, v2_test::collect, 16, &b),
            ROCPROFILER_STATUS_ERROR_INCORRECT_SIZE);
  EXPECT_EQ(rocprofiler_create_buffer(rocprofiler_session_id_t{999}, v2_test::collect, 4096, &b),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  b = new_buffer(s);
  rocprofiler_buffer_property_t zero{ROCPROFILER_BUFFER_PROPERTY_KIND_INTERVAL_FLUSH, 0};
  EXPECT_EQ(rocprofiler_set_buffer_properties(s, b, &zero, 1),
            ROCPROFILER_STATUS_ERROR_INCORRECT_FLUSH_INTERVAL);
  rocprofiler_buffer_property_t ten{ROCPROFILER_BUFFER_PROPERTY_KIND_INTERVAL_FLUSH, 10};
  EXPECT_EQ(rocprofiler_set_buffer_properties(s, b, &ten, 1), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_flush_data(s, rocprofiler_buffer_id_t{999}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  EXPECT_EQ(rocprofiler_flush_data(s, b), ROCPROFILER_STATUS_SUCCESS);  // empty: no callback
  EXPECT_EQ(v2_test::collector::get().deliveries_of(b), 0);
  EXPECT_EQ(rocprofiler_destroy_buffer(s, b), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_destroy_buffer(s, b), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
}

TEST_F(v2_session, filter_misuse_and_amd_only_filters) {
  const rocprofiler_session_id_t s = new_session();
  rocprofiler_filter_id_t f{};
  EXPECT_EQ(rocprofiler_create_filter(s, ROCPROFILER_API_TRACE, rocprofiler_filter_data_t{}, 0, &f,
                                      rocprofiler_filter_property_t{}),
            ROCPROFILER_STATUS_ERROR_FILTER_DATA_CORRUPTED);
  rocprofiler_tracer_activity_domain_t bad[] = {
      static_cast<rocprofiler_tracer_activity_domain_t>(42)};
  rocprofiler_filter_data_t data{};
  data.trace_apis = bad;
  EXPECT_EQ(rocprofiler_create_filter(s, ROCPROFILER_API_TRACE, data, 1, &f,
                                      rocprofiler_filter_property_t{}),
            ROCPROFILER_STATUS_ERROR_INVALID_DOMAIN_ID);
  for (rocprofiler_filter_kind_t kind :
       {ROCPROFILER_PC_SAMPLING_COLLECTION, ROCPROFILER_ATT_TRACE_COLLECTION,
        ROCPROFILER_SPM_COLLECTION, ROCPROFILER_COUNTERS_SAMPLER, ROCPROFILER_COUNTERS_COLLECTION})
    EXPECT_EQ(rocprofiler_create_filter(s, kind, rocprofiler_filter_data_t{}, 0, &f,
                                        rocprofiler_filter_property_t{}),
              ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << kind;
  EXPECT_EQ(rocprofiler_create_filter(
                rocprofiler_session_id_t{999}, ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION,
                rocprofiler_filter_data_t{}, 0, &f, rocprofiler_filter_property_t{}),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  // A sync callback belongs to an API_TRACE filter.
  const rocprofiler_filter_id_t k = kernel_filter(s);
  EXPECT_EQ(rocprofiler_set_api_trace_sync_callback(
                s, k, [](rocprofiler_record_tracer_t, rocprofiler_session_id_t) {}),
            ROCPROFILER_STATUS_ERROR_SESSION_FILTER_DATA_MISMATCH);
}

TEST_F(v2_session, next_record_misuse) {
  const rocprofiler_session_id_t s = new_session();
  const rocprofiler_buffer_id_t b = new_buffer(s);
  rocprofiler_record_tracer_t records[2]{};
  records[0].header.kind = ROCPROFILER_TRACER_RECORD;
  const rocprofiler_record_header_t* next = nullptr;
  EXPECT_EQ(rocprofiler_next_record(&records[0].header, &next, s, b), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(static_cast<const void*>(next), static_cast<const void*>(&records[1]));
  EXPECT_EQ(rocprofiler_next_record(nullptr, &next, s, b),
            ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENTS);
  EXPECT_EQ(rocprofiler_next_record(&records[0].header, &next, rocprofiler_session_id_t{999}, b),
            ROCPROFILER_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(rocprofiler_next_record(&records[0].header, &next, s, rocprofiler_buffer_id_t{999}),
            ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
  records[0].header.kind = static_cast<rocprofiler_record_kind_t>(77);
  EXPECT_EQ(rocprofiler_next_record(&records[0].header, &next, s, b),
            ROCPROFILER_STATUS_ERROR_RECORD_CORRUPTED);
}

TEST_F(v2_session, ready_session) {
  rocprofiler_session_id_t s{};
  ASSERT_EQ(rocprofiler_create_ready_session(ROCPROFILER_NONE_REPLAY_MODE,
                                             ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION,
                                             rocprofiler_filter_data_t{}, 0, 4096, v2_test::collect,
                                             &s, rocprofiler_filter_property_t{}, nullptr),
            ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_start_session(s), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_terminate_session(s), ROCPROFILER_STATUS_SUCCESS);
  EXPECT_EQ(rocprofiler_create_ready_session(ROCPROFILER_NONE_REPLAY_MODE,
                                             ROCPROFILER_DISPATCH_TIMESTAMPS_COLLECTION,
                                             rocprofiler_filter_data_t{}, 0, 8, v2_test::collect,
                                             &s, rocprofiler_filter_property_t{}, nullptr),
            ROCPROFILER_STATUS_ERROR_INCORRECT_SIZE);
}

}  // namespace
