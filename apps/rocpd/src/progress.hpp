// A progress bar on stderr for work that takes more than a second: drawn only when stderr is a
// terminal, first after one second, then at most ten times a second, and erased at the end.
// No Debian package offers a C++ progress bar, so it is these few lines.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace rocprof::rocpd_cli {

class progress_bar {
 public:
  progress_bar(std::string label, uint64_t total);
  ~progress_bar();
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;

  void update(uint64_t done);

 private:
  using clock = std::chrono::steady_clock;
  std::string label_;
  uint64_t total_;
  bool terminal_;
  bool drawn_ = false;
  clock::time_point start_, last_;
};

}  // namespace rocprof::rocpd_cli
