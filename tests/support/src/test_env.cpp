#include "rocprof/test_support/test_env.hpp"

#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace rocprof::test_support {

command_result run(const std::string& command) {
  command_result result;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buf[65536];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
    result.output.append(buf, n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string run_command(const std::string& command, int* exit_status) {
  command_result result = run(command);
  if (exit_status) *exit_status = result.status;
  return std::move(result.output);
}

bool have_program(const std::string& program) {
  return run("command -v " + shell_quote(program) + " >/dev/null 2>&1").status == 0;
}

std::string missing_reader(const std::string& program) {
  return program +
         " not found: this test reads the output with it and fails without it "
         "(scripts/setup.sh installs it)";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return out + "'";
}

temp_dir::temp_dir(const std::string& tag) : owner_(::getpid()) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string{base && *base ? base : "/tmp"} + "/rocprof-" + tag + "-XXXXXX";
  if (::mkdtemp(pattern.data())) path_ = pattern;
}

temp_dir::~temp_dir() {
  // A forked child that exits must not remove its parent's directory.
  if (path_.empty() || owner_ != ::getpid() || std::getenv("ROCPROF_KEEP_TEST_OUTPUT")) return;
  std::error_code ec;
  // A test may have taken its own permissions away (an unwritable output directory).
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(path_, ec);
}

std::string temp_dir::write(const std::string& name, const std::string& text) const {
  const std::string file = path_ + "/" + name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

std::string scratch_dir(const std::string& name) {
  static const temp_dir scratch{"scratch"};
  const std::filesystem::path dir = std::filesystem::path(scratch.path()) / name;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace rocprof::test_support
