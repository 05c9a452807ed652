#include "rocprof/test_support/test_env.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rocprof::test_support {

std::string run_command(const std::string& command, int* exit_status) {
  std::string out;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    if (exit_status) *exit_status = -1;
    return out;
  }
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
    out.append(buf, n);
  const int status = ::pclose(pipe);
  if (exit_status) *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

bool have_program(const std::string& program) {
  int status = 0;
  run_command("command -v " + shell_quote(program) + " >/dev/null 2>&1", &status);
  return status == 0;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return out + "'";
}

temp_dir::temp_dir(const std::string& tag) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string{base && *base ? base : "/tmp"} + "/rocprof-" + tag + "-XXXXXX";
  std::string buf = pattern;
  if (::mkdtemp(buf.data())) path_ = buf;
}

temp_dir::~temp_dir() {
  if (path_.empty() || std::getenv("ROCPROF_KEEP_TEST_OUTPUT")) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace rocprof::test_support
