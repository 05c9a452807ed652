#include "counter_listing.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "job.hpp"
#include "rocprof/counters/value.hpp"
#include "rocprof/trace/staged_file.hpp"

namespace rocprof::cli {
namespace {

namespace rc = rocprof::counters;

// rocprofv3's "Key<padding>:\tvalue" lines (the key padded to 20 columns).
void field(std::ostream& out, const char* key, const std::string& value) {
  char padded[32];
  std::snprintf(padded, sizeof(padded), "%-20s", key);
  out << padded << ":\t" << value << "\n";
}

std::string suffixes_text(const std::vector<std::string>& set) {
  std::string out;
  for (const auto& s : set)
    out += (out.empty() ? "" : " ") + (s.empty() ? std::string("(none)") : s);
  return out;
}

const std::string scalar = rc::dimensions_text({});

// A CSV field, quoted (rocprofv3's list-avail files go through Python's csv module, which quotes
// fields that need it; quoting all is read the same way).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::ostringstream csv_with_header(const char* header) {
  std::ostringstream out;
  out << header << "\n";
  return out;
}

// Staged (rocprof/trace/staged_file.hpp) and renamed over `path`, like every other output: a
// link planted at the name is replaced, never followed, and a reader never sees half a file.
void write_replacing(const std::string& path, const std::string& text) {
  trace::staged_file file;
  if (!file.create(path)) throw usage_error("--list-avail: " + file.error());
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(file.fd(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  if (done != text.size())
    throw usage_error("--list-avail: cannot write " + path + ": " + std::strerror(errno));
  const std::string error = file.commit();
  if (!error.empty()) throw usage_error("--list-avail: " + error);
}

}  // namespace

void print_target_counters(std::ostream& out, const target_catalogue& catalogue) {
  const native_listing& listing = catalogue.listing();
  // rocprofv3's names and the constants first, as the definitions file orders them.
  for (const auto& info : catalogue.catalogue().counters()) {
    if (!info.is_derived && !info.is_constant) continue;
    field(out, "Counter_Name", info.name);
    field(out, "Description", info.description);
    if (info.is_derived) field(out, "Expression", info.expression);
    if (!info.is_derived) field(out, "Block", info.block);
    field(out, "Dimensions", rc::dimensions_text(info.dimensions));
    out << "\n";
  }
  out << "Native counters of " << listing.chip << " (" << listing.counters.size()
      << " base metrics; each is collected as its name followed by one roll-up or sub-metric of "
         "its set, e.g. "
      << (listing.counters.empty() ? std::string("smsp__warps_launched")
                                   : listing.counters.front().name)
      << (listing.suffix_sets.empty() || listing.suffix_sets.front().empty()
              ? std::string(".sum")
              : listing.suffix_sets.front().front())
      << "):\n";
  for (size_t i = 0; i < listing.suffix_sets.size(); ++i) {
    out << "  Set " << i + 1 << " (" << listing.suffix_sets[i].size()
        << "): " << suffixes_text(listing.suffix_sets[i]) << "\n";
  }
  out << "\n";
  for (const auto& native : listing.counters) {
    field(out, "Counter_Name", native.name);
    field(out, "Description", native.description);
    field(out, "Block", native.block);
    field(out, "Type", native.type + (native.unit.empty() ? "" : ", unit " + native.unit));
    field(out, "Sub_Metrics", "set " + std::to_string(native.suffix_set + 1));
    field(out, "Dimensions", scalar);
    out << "\n";
  }
}

std::vector<std::string> write_counter_files(const std::string& path_prefix,
                                             const std::vector<listed_target>& targets) {
  const std::string basic_path = path_prefix + "_basic_metrics.csv";
  const std::string derived_path = path_prefix + "_derived_metrics.csv";
  auto basic = csv_with_header(R"("Agent_Id","Name","Description","Block","Dimensions")");
  auto derived = csv_with_header(R"("Agent_Id","Name","Description","Expression","Dimensions")");
  for (const auto& t : targets) {
    const auto& listing = t.catalogue->listing();
    for (const auto& info : t.catalogue->catalogue().counters()) {
      if (info.is_derived) {
        derived << quoted(t.agent_id) << ',' << quoted(info.name) << ',' << quoted(info.description)
                << ',' << quoted(info.expression) << ','
                << quoted(rc::dimensions_text(info.dimensions)) << "\n";
      } else if (info.is_constant) {
        basic << quoted(t.agent_id) << ',' << quoted(info.name) << ',' << quoted(info.description)
              << ',' << quoted(info.block) << ',' << quoted(scalar) << "\n";
      }
    }
    for (const auto& native : listing.counters) {
      const std::string subs = native.suffix_set < listing.suffix_sets.size()
                                   ? suffixes_text(listing.suffix_sets[native.suffix_set])
                                   : std::string();
      basic << quoted(t.agent_id) << ',' << quoted(native.name) << ','
            << quoted(native.description + " [collected as " + native.name +
                      " plus one of: " + subs + "]")
            << ',' << quoted(native.block) << ',' << quoted(scalar) << "\n";
    }
  }
  write_replacing(basic_path, basic.str());
  write_replacing(derived_path, derived.str());
  return {basic_path, derived_path};
}

}  // namespace rocprof::cli
