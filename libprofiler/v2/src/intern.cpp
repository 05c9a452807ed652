#include "intern.hpp"

#include <mutex>
#include <unordered_set>

namespace rocprof::v2 {
namespace {

// Leaked: names are read by delivery threads that may run during exit.
std::unordered_set<std::string>& table() {
  static auto* strings = new std::unordered_set<std::string>();
  return *strings;
}
std::mutex& table_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

}  // namespace

const char* intern(const std::string& text) {
  std::lock_guard<std::mutex> lock(table_mutex());
  return table().insert(text).first->c_str();
}

const char* intern(const char* text) {
  return text == nullptr ? nullptr : intern(std::string(text));
}

}  // namespace rocprof::v2
