// Helpers for tests that check outputs with independent programs (sqlite3, python3, protoc...).
#pragma once

#include <string>

namespace rocprof::test_support {

// Runs a shell command, returns its stdout; *exit_status gets the exit code (-1 if it could
// not run).
std::string run_command(const std::string& command, int* exit_status = nullptr);

// True when `program` is found on PATH.
bool have_program(const std::string& program);

// A fresh empty directory under $TMPDIR (or /tmp), removed by the destructor unless
// ROCPROF_KEEP_TEST_OUTPUT is set.
class temp_dir {
 public:
  explicit temp_dir(const std::string& tag);
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Single-quotes s for /bin/sh.
std::string shell_quote(const std::string& s);

// Whole file contents ("" if missing).
std::string read_file(const std::string& path);

}  // namespace rocprof::test_support
