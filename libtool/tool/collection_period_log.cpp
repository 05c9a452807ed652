#include "collection_period_log.hpp"

namespace rocprof::tool {

void period_log::record(size_t index, const period_window& window) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (index >= windows_.size()) windows_.resize(index + 1);
  windows_[index] = window;
}

std::vector<period_window> period_log::windows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return windows_;
}

std::string format_period_log(const std::vector<period_window>& windows) {
  std::string text;
  auto line = [&text](const char* label, uint64_t begin, uint64_t end) {
    text += label;
    text += ':' + std::to_string(begin) + ':' + std::to_string(end) + '\n';
  };
  for (const period_window& w : windows) {
    line("delay", w.delay_begin, w.delay_end);
    if (w.start_end != 0) {
      line("start", w.start_begin, w.start_end);
      if (w.stop_begin != 0) {
        line("duration", w.start_end, w.stop_begin);
        line("stop", w.stop_begin, w.stop_end);
      }
    }
    text += "--\n";
  }
  return text;
}

}  // namespace rocprof::tool
