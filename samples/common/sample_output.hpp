// What every sample tool shares: where its lines go, and a check of the C API's status codes.
//
// Each tool prints one line per event, "<tag> key=value key=value ...", to the file named by
// ROCPROF_SAMPLE_OUTPUT ("stdout" and "stderr" work too; stdout when unset). Values with spaces
// are quoted. Lines come from several threads (the application's, the buffer callback
// threads); a mutex keeps them whole.
#pragma once

#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>

namespace sample {

class output {
 public:
  static output& get() {
    static output* instance = new output();  // never destroyed: threads may print at exit
    return *instance;
  }
  void line(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::fprintf(file_, "%s\n", text.c_str());
    std::fflush(file_);
  }

 private:
  output() {
    const char* name = std::getenv("ROCPROF_SAMPLE_OUTPUT");
    const std::string_view where = name != nullptr ? name : "stdout";
    if (where == "stderr") {
      file_ = stderr;
    } else if (where != "stdout") {
      file_ = std::fopen(name, "w");
      if (file_ == nullptr) file_ = stdout;
    }
  }
  std::mutex mutex_;
  std::FILE* file_ = stdout;
};

// Builds one line: line("record").add("kind", name).add("cid", id).print().
class line {
 public:
  explicit line(std::string_view tag) { text_ << tag; }
  template <typename T>
  line& add(std::string_view key, const T& value) {
    std::ostringstream v;
    v << value;
    const std::string s = v.str();
    text_ << ' ' << key << '=';
    if (s.find(' ') != std::string::npos || s.empty())
      text_ << '"' << s << '"';
    else
      text_ << s;
    return *this;
  }
  void print() { output::get().line(text_.str()); }

 private:
  std::ostringstream text_;
};

// The status name of a failed call, printed as "error call=... status=..."; true on success.
inline bool check(rocprofiler_status_t status, const char* call) {
  if (status == ROCPROFILER_STATUS_SUCCESS) return true;
  line("error").add("call", call).add("status", rocprofiler_get_status_name(status)).print();
  return false;
}

}  // namespace sample

// Returns -1 from the enclosing function (a tool's initialize) when the call fails.
#define SAMPLE_CHECK(call)                          \
  do {                                              \
    if (!::sample::check((call), #call)) return -1; \
  } while (0)
