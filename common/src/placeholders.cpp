// Output-path placeholders. Environment-derived keys (%env{..}%, %job%, %rank%, %size%) are read
// at expansion time, so the tool sees the application's environment.
#include "rocprof/common/placeholders.hpp"

#include <unistd.h>

#include <limits.h>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>

#include "rocprof/config/schema.hpp"
#include "rocprof/config/values.hpp"

namespace rocprof::common {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

// Later names in each list win when several are set (as rocprofv3's tool does).
std::string mpi_value(const std::vector<const char*>& names, const std::string& fallback) {
  std::string value = fallback;
  for (const char* name : names)
    value = env_or(name, value);
  return value;
}

std::string rank() {
  // The variable rocprofv3 chose (it exports its name) when it ran us; else the tool's rule.
  if (const char* var = std::getenv("ROCPROF_MPI_RANK_VAR"); var != nullptr && *var != '\0')
    return env_or(var, "0");
  const std::string mpi = mpi_value(
      {"MPI_RANK", "MPI_LOCALRANKID", "MPI_RANKID", "MV2_COMM_WORLD_RANK", "OMPI_COMM_WORLD_RANK"},
      "0");
  return env_or("SLURM_PROCID", mpi);
}

std::string size() {
  const char* var = std::getenv("ROCPROF_MPI_SIZE_VAR");
  const std::string mpi = var != nullptr && *var != '\0' ? env_or(var, "1") : mpi_value(
      {"MPI_SIZE", "MPI_LOCALNRANKS", "MPI_NRANKS", "MV2_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE"},
      "1");
  char* end = nullptr;
  const long value = std::strtol(mpi.c_str(), &end, 10);
  return std::to_string(value < 1 ? 1 : value);
}

// '/' becomes '_'; leading '.' and '_' go, so "./app" reads "app".
std::string normalize_arg(const std::string& arg) {
  std::string out = arg;
  for (char& c : out) {
    if (c == '/') c = '_';
  }
  const size_t start = out.find_first_not_of("._");
  return start == std::string::npos ? std::string() : out.substr(start);
}

std::string basename_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string join_normalized(const std::vector<std::string>& args, size_t first) {
  std::string out;
  for (size_t i = first; i < args.size(); ++i) {
    const std::string part = normalize_arg(args[i]);
    if (part.empty()) continue;
    if (!out.empty()) out += '_';
    out += part;
  }
  return out;
}

// Env values in paths: leading '/', tab and space go, the rest become '_'.
std::string path_safe(std::string value) {
  const size_t start = value.find_first_not_of("/\t ");
  value = start == std::string::npos ? std::string() : value.substr(start);
  for (char& c : value) {
    if (c == '/' || c == '\t' || c == ' ') c = '_';
  }
  return value;
}

bool valid_env_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name) {
    if (!(std::isupper(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return false;
    }
  }
  return true;
}

// The loops below stop as soon as the text is over the limit: the round is then discarded, so
// no single round can grow without bound either (a template of many %argv% or %env{..}%).
bool too_long(const std::string& text) {
  return text.size() > k_max_expanded_length;
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos && !too_long(text);
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
}

// %env{NAME}%, $env{NAME}, $ENV{NAME} and %q{NAME}.
void expand_env_forms(std::string& text) {
  struct form {
    const char* open;
    const char* close;
  };
  for (const form f :
       {form{"%env{", "}%"}, form{"$env{", "}"}, form{"$ENV{", "}"}, form{"%q{", "}"}}) {
    const std::string open = f.open;
    const std::string close = f.close;
    size_t pos = 0;
    while (!too_long(text) && (pos = text.find(open, pos)) != std::string::npos) {
      const size_t name_start = pos + open.size();
      const size_t end = text.find(close, name_start);
      if (end == std::string::npos) break;
      const std::string name = text.substr(name_start, end - name_start);
      if (!valid_env_name(name)) {
        pos = name_start;
        continue;
      }
      const std::string value = path_safe(env_or(name.c_str(), ""));
      text.replace(pos, end + close.size() - pos, value);
      pos += value.size();
    }
  }
}

// The N of "%argN%" / "{argN}" starting at `pos` (the '%' or '{'), and where it ends; nullopt
// when the text there is no such placeholder. An N too large for 64 bits reads as SIZE_MAX: past
// the end of any command line.
struct arg_placeholder {
  size_t index = 0;
  size_t end = 0;  // one past the closing '%' or '}'
  bool overflows = false;
};

std::optional<arg_placeholder> arg_placeholder_at(const std::string& text, size_t pos) {
  const char close = text[pos] == '%' ? '%' : '}';
  size_t digits_end = pos + 4;
  while (digits_end < text.size() && std::isdigit(static_cast<unsigned char>(text[digits_end])))
    ++digits_end;
  if (digits_end == pos + 4 || digits_end >= text.size() || text[digits_end] != close) {
    return std::nullopt;
  }
  arg_placeholder found;
  found.end = digits_end + 1;
  const auto value =
      config::parse_integer(std::string_view(text).substr(pos + 4, digits_end - pos - 4));
  found.overflows = !value || *value > k_max_arg_index;
  found.index = found.overflows ? SIZE_MAX : static_cast<size_t>(*value);
  return found;
}

// %argN% / {argN}: argument N normalized; past the end it is removed with the '-', '/' or '_'
// characters that follow it.
void expand_arg_n(std::string& text, const std::vector<std::string>& argv) {
  for (const char* open : {"%arg", "{arg"}) {
    size_t pos = 0;
    while (!too_long(text) && (pos = text.find(open, pos)) != std::string::npos) {
      const auto found = arg_placeholder_at(text, pos);
      if (!found) {
        pos += 4;
        continue;
      }
      size_t end = found->end;
      std::string value;
      if (found->index < argv.size()) {
        value = normalize_arg(argv[found->index]);
      } else {
        while (end < text.size() && (text[end] == '-' || text[end] == '/' || text[end] == '_'))
          ++end;
      }
      text.replace(pos, end - pos, value);
      pos += value.size();
    }
  }
}

std::string format_now(std::string_view key, const char* env_name) {
  const std::string format = env_or(env_name, std::string(config::option(key).default_value));
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[256];
  // The format is the user's ROCPROF_TIME_FORMAT / ROCPROF_DATE_FORMAT by design.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  const size_t length = std::strftime(buffer, sizeof(buffer), format.c_str(), &local);
#pragma GCC diagnostic pop
  return std::string(buffer, length);
}

long count_children(long ppid) {
  const std::string path =
      "/proc/" + std::to_string(ppid) + "/task/" + std::to_string(ppid) + "/children";
  std::ifstream in(path);
  long count = 0;
  std::string pid;
  while (in >> pid)
    ++count;
  return count;
}

}  // namespace

placeholder_context placeholder_context::for_current_process() {
  placeholder_context context;
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  for (std::string arg; std::getline(cmdline, arg, '\0');)
    context.argv.push_back(arg);
  context.pid = ::getpid();
  context.ppid = ::getppid();
  context.pgid = ::getpgrp();
  context.psid = ::getsid(0);
  context.psize = count_children(context.ppid);
  char host[HOST_NAME_MAX + 1] = {};
  context.hostname = ::gethostname(host, sizeof(host) - 1) == 0 ? host : "UNKNOWN_HOSTNAME";
  char cwd[PATH_MAX] = {};
  context.cwd = ::getcwd(cwd, sizeof(cwd)) != nullptr ? cwd : env_or("PWD", ".");
  const auto& time_row = config::option("launch_time_format");
  const auto& date_row = config::option("launch_date_format");
  context.launch_time = format_now(time_row.key, std::string(time_row.env).c_str());
  context.launch_date = format_now(date_row.key, std::string(date_row.env).c_str());
  return context;
}

namespace {

// Every round expands what the previous one produced (an environment value may hold
// placeholders), at most 16 rounds; a round whose result would pass k_max_expanded_length stops
// the expansion with the previous round's text.
std::string expand(std::string_view text, const placeholder_context& context, std::string* error) {
  std::vector<std::string> argv = context.argv;
  if (argv.size() > 1 && argv[1] == "--") argv.erase(argv.begin() + 1);
  const std::string tag = argv.empty() ? std::string() : normalize_arg(basename_of(argv[0]));
  const std::string args = join_normalized(argv, 1);
  const std::string argt = args.empty() ? tag : tag + "_" + args;
  const std::string the_rank = rank();

  // Longer keys first so that e.g. "pid" never eats the start of "ppid" in the {key} form.
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"argv", join_normalized(argv, 0)},
      {"argt", argt},
      {"args", args},
      {"tag", tag},
      {"hostname", context.hostname},
      {"ppid", std::to_string(context.ppid)},
      {"pgid", std::to_string(context.pgid)},
      {"psid", std::to_string(context.psid)},
      {"psize", std::to_string(context.psize)},
      {"pid", std::to_string(context.pid)},
      {"job", env_or("SLURM_JOB_ID", "0")},
      {"rank", the_rank},
      {"size", size()},
      {"nid", the_rank},
      {"cwd", context.cwd},
      {"launch_date", context.launch_date},
      {"launch_time", context.launch_time},
  };
  const std::vector<std::pair<std::string, std::string>> shorthands = {
      {"%h", context.hostname},
      {"%p", std::to_string(context.pid)},
      {"%j", env_or("SLURM_JOB_ID", "0")},
      {"%r", the_rank},
      {"%s", size()}};

  std::string current(text);
  for (int round = 0; round < 16; ++round) {
    std::string next = current;
    expand_env_forms(next);
    expand_arg_n(next, argv);
    for (const auto& [key, value] : keys) {
      replace_all(next, "%" + key + "%", value);
      replace_all(next, "{" + key + "}", value);
    }
    for (const auto& [key, value] : shorthands)
      replace_all(next, key, value);
    if (too_long(next)) {
      if (error != nullptr) {
        *error = "expands to more than " + std::to_string(k_max_expanded_length) + " bytes";
      }
      break;
    }
    if (next == current) break;
    current = std::move(next);
  }
  return current;
}

}  // namespace

std::string expand_placeholders(std::string_view text, const placeholder_context& context) {
  return expand(text, context, nullptr);
}

std::string placeholder_problem(std::string_view text, const placeholder_context& context) {
  const std::string copy(text);
  for (const char* open : {"%arg", "{arg"}) {
    for (size_t pos = copy.find(open); pos != std::string::npos; pos = copy.find(open, pos + 4)) {
      const auto found = arg_placeholder_at(copy, pos);
      if (found && found->overflows) {
        return "'" + copy.substr(pos, found->end - pos) + "': the argument index is larger than " +
               std::to_string(k_max_arg_index);
      }
    }
  }
  std::string error;
  expand(text, context, &error);
  return error;
}

}  // namespace rocprof::common
