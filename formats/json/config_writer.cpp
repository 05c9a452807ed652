// <prefix>_config.json (--output-config, rocprofv3-facts §5.2): the resolved configuration, the
// command, the build identity and the process environment, pretty-printed with indent 2.
#include <nlohmann/json.hpp>
#include <optional>

#include "common/json_object.hpp"
#include "common/output_file.hpp"
#include "json/json_writer.hpp"
#include "rocprof/common/version.hpp"

namespace rocprof::formats::json {
namespace {

using namespace rocprof::trace;
using ojson = nlohmann::ordered_json;

// "1.2.3-4" -> {1, 2, 3}; missing parts are 0.
std::array<int, 3> version_parts(std::string_view v) {
  std::array<int, 3> parts{0, 0, 0};
  size_t idx = 0;
  for (char c : v) {
    if (c >= '0' && c <= '9')
      parts[idx] = parts[idx] * 10 + (c - '0');
    else if (c == '.' && idx < 2)
      ++idx;
    else
      break;
  }
  return parts;
}

ojson build_spec() {
  const auto& b = common::get_build_info();
  const auto v = version_parts(b.version);
  return ojson{{"version_major", v[0]},
               {"version_minor", v[1]},
               {"version_patch", v[2]},
               {"soversion", v[0]},
               {"compiler_id", b.compiler_id},
               {"compiler_version", b.compiler_version},
               {"git_describe", b.version},
               {"git_revision", b.git_revision},
               {"library_arch", b.library_arch},
               {"system_name", b.system_name},
               {"system_processor", b.system_processor},
               {"system_version", b.system_version}};
}

class config_writer final : public writer {
 public:
  explicit config_writer(const output_options& options) : options_{options} {}

  void begin(const trace_definitions& defs) override { defs_ = &defs; }

  std::string finish() override {
    if (!defs_) return "config writer finished before begin()";
    const auto& p = defs_->process;
    const ojson config = parse_json_object(p.config_json);
    ojson env = ojson::object();
    for (const auto& [k, v] : p.environment)
      env[k] = v;
    ojson meta{{"pid", p.pid},      {"init_time", p.init_ns}, {"fini_time", p.fini_ns},
               {"config", config},  {"command", p.command},   {"build_spec", build_spec()},
               {"environment", env}};
    ojson doc{{"rocprofiler-sdk-tool", ojson::array({ojson{{"metadata", meta}}})}};
    output_file f{options_.path_for("config", "json")};
    f.write(doc.dump(2));
    f.write("\n");
    return f.close();
  }

  // The configuration has no records: every kind, present and future, is ignored.
  // clang-format off
#define ROCPROF_CONFIG_IGNORES(TYPE, NAME) \
  void write(record_span<TYPE> r) override { ignore_records(r); }
  ROCPROF_TRACE_RECORD_KINDS(ROCPROF_CONFIG_IGNORES)
#undef ROCPROF_CONFIG_IGNORES
  // clang-format on

 private:
  output_options options_;
  const trace_definitions* defs_ = nullptr;
};

}  // namespace

std::unique_ptr<writer> make_config_writer(const output_options& options) {
  return std::make_unique<config_writer>(options);
}

}  // namespace rocprof::formats::json
