// Output files that are complete or absent, never half-written, never shared, and never written
// through a link someone planted at their name.
//
// A staged file is created under a private temporary name beside its final name
// (`<dir>/.<name>.<pid>-<n>.partial`, O_CREAT|O_EXCL|O_NOFOLLOW: a name that exists, link or
// not, is never opened) and renamed over the final name when complete. rename() replaces a
// file of an earlier run in one step and replaces a symbolic link itself, never its target.
// A staged file that is dropped or destroyed uncommitted is removed.
//
// Every staged file not yet committed is also listed in a fixed table that a signal handler can
// walk: remove_unfinished_outputs() (async-signal-safe) unlinks them, so that a process stopped
// at once (three interrupts within a second) leaves each output complete or absent.
#pragma once

#include <string>

namespace rocprof::trace {

class staged_file {
 public:
  staged_file() = default;
  ~staged_file();
  staged_file(staged_file&& other) noexcept;
  staged_file& operator=(staged_file&& other) noexcept;
  staged_file(const staged_file&) = delete;
  staged_file& operator=(const staged_file&) = delete;

  // Creates the parent directories of final_path and the temporary file, opened read-write.
  // Returns false and sets error() when it cannot (or when outputs are being abandoned).
  bool create(std::string final_path);

  bool is_open() const { return fd_ >= 0 || !temp_path_.empty(); }
  int fd() const { return fd_; }
  // The descriptor becomes the caller's (e.g. for fdopen); the file stays staged.
  int release_fd();
  const std::string& final_path() const { return final_path_; }
  const std::string& temp_path() const { return temp_path_; }
  const std::string& error() const { return error_; }

  // Closes the descriptor (if still ours) and renames the file to its final name. Returns an
  // error text, empty on success; on failure the temporary file is removed.
  std::string commit();
  // Closes and removes the temporary file (a scratch file, or a failed output).
  void discard();

 private:
  void close_fd();
  void forget_slot();

  int fd_ = -1;
  int slot_ = -1;  // index in the table of unfinished files, -1 when not listed
  std::string final_path_;
  std::string temp_path_;
  std::string error_;
};

// Async-signal-safe. Unlinks every staged file of this process not yet committed and makes
// later staged_file::create() calls fail. Returns how many files it removed.
int remove_unfinished_outputs() noexcept;

// Creates the parent directories of path; returns an error text or empty.
std::string create_parent_directories(const std::string& path);

}  // namespace rocprof::trace
