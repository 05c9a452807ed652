// Writing a synthetic trace with one registered writer into a test directory (the PC-sampling
// and host-call-stack output tests).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "rocprof/test_support/synthetic_trace.hpp"
#include "rocprof/test_support/test_env.hpp"
#include "rocprof/trace/writer_registry.hpp"

namespace rocprof::test_support {

inline trace::output_options options_for(const std::string& dir, const std::string& prefix) {
  trace::output_options o;
  o.output_directory = dir;
  o.file_prefix = prefix;
  return o;
}

// Empty on success, else the writer's (or the registry's) error.
inline std::string write_with(const std::string& format, const synthetic_trace& t,
                              const trace::output_options& o) {
  std::string error;
  auto w = trace::make_writer(format, o, &error);
  EXPECT_TRUE(w) << error;
  return w ? write_synthetic_trace(*w, t, 3) : error;
}

// Runs a Python script (the independent reader of the outputs); its exit status, output in *out.
inline int run_python(const std::string& script, std::string* out) {
  int status = 0;
  *out = run_command("python3 -c " + shell_quote(script) + " 2>&1", &status);
  return status;
}

}  // namespace rocprof::test_support
