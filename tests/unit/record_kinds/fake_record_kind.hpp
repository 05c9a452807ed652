// test_fake_record: a record kind that exists only in the record-kind extension test build,
// which names this file in ROCPROF_TRACE_EXTRA_RECORD_KINDS_HEADER (model.hpp includes it after
// the real records). This is all a new kind takes: a plain struct and its line of the list.
#pragma once

#include <cstdint>

namespace rocprof::trace {

struct test_fake_record {
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t value = 0;
};

}  // namespace rocprof::trace

#define ROCPROF_TRACE_EXTRA_RECORD_KINDS(X) X(test_fake_record, test_fake)
