#include "counter_check_memo.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "rocprof/common/file_identity.hpp"
#include "rocprof/common/fnv1a.hpp"
#include "rocprof/common/read_file.hpp"
#include "rocprof/common/version.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::cli {
namespace {

constexpr const char* cache_variable = "ROCPROF_COUNTER_CHECK_CACHE";
constexpr char separator = '\0';  // between the key and each warning in a kept file

// FNV-1a of `text` as 16 hex digits.
std::string hash_text(const std::string& text) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(common::fnv1a(text)));
  return hex;
}

// A file's contents stand in the key as their size and hash ("-" when there is no file).
bool add_contents(std::string& key, const char* what, const std::string& path) {
  if (path.empty()) {
    key += std::string(what) + " -\n";
    return true;
  }
  std::string text;
  if (!common::read_whole_file(path, text)) return false;
  key += std::string(what) + " " + path + " " + std::to_string(text.size()) + " " +
         hash_text(text) + "\n";
  return true;
}

}  // namespace

std::string counter_check_key(const std::vector<pass>& passes,
                              const std::vector<counter_target>& targets,
                              const std::string& shipped_definitions,
                              const std::string& backend_source) {
  if (backend_source.empty()) return {};
  // This program's own file too: a rebuilt CLI may check differently under the same version.
  std::error_code error;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
  std::string key = "rocprofv3 " + std::string(common::get_build_info().version) + "\n";
  const std::string program = common::file_identity(self);
  if (program.empty()) return {};
  key += "program " + program + "\n";
  key += "backend " + backend_source + "\n";
  for (const auto& t : targets) {
    key += "target " + t.label + " | " + t.chip + " | " +
           (t.device ? std::to_string(*t.device) : std::string("-")) + "\n";
  }
  // An installation without the shipped file is checked differently (native counters only).
  if (!add_contents(key, "definitions", shipped_definitions) &&
      !add_contents(key, "definitions", "")) {
    return {};
  }
  for (const auto& p : passes) {
    key += "pass " + p.sub_directory + "\n pmc " + config::join(p.config.list("pmc"), " ") +
           "\n pmc_groups " + config::join(p.config.list("pmc_groups"), " | ") + "\n replay_mode " +
           p.config.text("replay_mode").value_or("") + "\n";
    if (!add_contents(key, " extra_counters", p.config.text("extra_counters").value_or("")))
      return {};
  }
  return key;
}

std::string counter_check_memo::folder_from(const environment& base) {
  const std::string chosen = environment_value(base, cache_variable);
  if (chosen.find('/') != std::string::npos) return chosen;  // a folder
  if (!chosen.empty()) {
    const auto on = config::parse_bool_word(chosen);
    if (!on) {
      throw usage_error(std::string(cache_variable) + "='" + chosen +
                        "' is neither a folder (a path with '/') nor on/off (1, yes, true, on / "
                        "0, no, false, off)");
    }
    if (!*on) return {};
  }
  const std::string xdg = environment_value(base, "XDG_CACHE_HOME");
  if (!xdg.empty()) return xdg + "/rocprofv3/counter-checks";
  const std::string home = environment_value(base, "HOME");
  if (!home.empty()) return home + "/.cache/rocprofv3/counter-checks";
  return {};
}

std::string counter_check_memo::path_of(const std::string& key) const {
  return folder_ + "/" + hash_text(key);
}

bool counter_check_memo::passed(const std::string& key, std::vector<std::string>& warnings) const {
  if (folder_.empty() || key.empty()) return false;
  std::string text;
  if (!common::read_whole_file(path_of(key), text)) return false;
  // The file starts with its whole key: equal hashes of different keys do not count.
  if (text.compare(0, key.size(), key) != 0 ||
      (text.size() > key.size() && text[key.size()] != separator)) {
    return false;
  }
  size_t at = key.size();
  while (at < text.size()) {
    const size_t end = text.find(separator, at + 1);
    warnings.push_back(text.substr(at + 1, end == std::string::npos ? end : end - at - 1));
    at = end == std::string::npos ? text.size() : end;
  }
  return true;
}

void counter_check_memo::keep(const std::string& key,
                              const std::vector<std::string>& warnings) const {
  if (folder_.empty() || key.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  if (error) return;
  std::string text = key;
  for (const auto& w : warnings)
    text += separator + w;
  // Written aside and renamed, so that a run reading it meanwhile sees all of it or nothing.
  const std::string path = path_of(key);
  const std::string partial = path + "." + std::to_string(::getpid());
  bool written = false;
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    written = static_cast<bool>(out << text);
  }
  if (written) std::filesystem::rename(partial, path, error);
  if (!written || error) std::filesystem::remove(partial, error);
}

}  // namespace rocprof::cli
