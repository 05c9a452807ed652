#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace rocprof::rocpd_cli {

progress_bar::progress_bar(std::string label, uint64_t total)
    : label_{std::move(label)},
      total_{total},
      terminal_{::isatty(STDERR_FILENO) == 1},
      start_{clock::now()},
      last_{start_} {}

progress_bar::~progress_bar() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void progress_bar::update(uint64_t done) {
  if (!terminal_) return;
  const auto now = clock::now();
  if (now - start_ < std::chrono::seconds{1} || now - last_ < std::chrono::milliseconds{100})
    return;
  last_ = now;
  drawn_ = true;
  constexpr int width = 40;
  const double fraction = total_ ? std::min(1.0, static_cast<double>(done) / total_) : 0.0;
  const int filled = static_cast<int>(fraction * width);
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r%s [%s%s] %3.0f%% %s rows, %.1f s", label_.c_str(),
               std::string(static_cast<size_t>(filled), '#').c_str(),
               std::string(static_cast<size_t>(width - filled), '.').c_str(), fraction * 100.0,
               fmt::format("{}", done).c_str(), seconds);
  std::fflush(stderr);
}

}  // namespace rocprof::rocpd_cli
