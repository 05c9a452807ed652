// Helpers for tests that run programs and check outputs with independent readers (sqlite3,
// python3, protoc, otf2-print): running a command, finding a program, scratch directories.
// Every test uses these instead of its own popen / mkdtemp / temp_directory_path.
#pragma once

#include <string>

namespace rocprof::test_support {

// A command's exit status (-1 when it could not run or did not exit) and its stdout.
struct command_result {
  int status = -1;
  std::string output;
};

// Runs a shell command (add " 2>&1" to capture stderr too).
command_result run(const std::string& command);

// Runs a shell command, returns its stdout; *exit_status gets the exit code (-1 if it could
// not run).
std::string run_command(const std::string& command, int* exit_status = nullptr);

// True when `program` can run: a name found on PATH, or a path (such as a CMake find_program
// result, "<VAR>-NOTFOUND" when CMake did not find it).
bool have_program(const std::string& program);

// The failure message of a golden test whose reader is missing: such a test fails, never
// skips (a skip would hide a broken writer); scripts/setup.sh installs every reader.
std::string missing_reader(const std::string& program);

// A fresh empty directory under $TMPDIR (or /tmp), removed by the destructor unless
// ROCPROF_KEEP_TEST_OUTPUT is set.
class temp_dir {
 public:
  explicit temp_dir(const std::string& tag = "test");
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const { return path_; }
  // Writes `text` to <path>/<name> (the folders in `name` must exist); returns the file's path.
  std::string write(const std::string& name, const std::string& text) const;

 private:
  std::string path_;
  int owner_;  // the process that made it (and removes it)
};

// A fresh empty folder `name` (emptied if it existed) inside this process's scratch directory,
// a temp_dir removed when the process exits: for tests that keep several outputs side by side.
std::string scratch_dir(const std::string& name);

// Single-quotes s for /bin/sh.
std::string shell_quote(const std::string& s);

// Whole file contents ("" if missing).
std::string read_file(const std::string& path);

// CPU time of the calling thread in seconds (user + system): bounds on work done that a loaded
// machine does not stretch the way it stretches wall time.
double thread_cpu_seconds();

}  // namespace rocprof::test_support
