// Prints docs/cli.md's rocpd option reference (Markdown) from rocpd's option table, so the
// documentation cannot drift from the options: a test compares the two.
#include <iostream>
#include <string>

#include "options.hpp"

namespace {

using rocprof::config::value_type;
using rocprof::rocpd_cli::rocpd_option;

std::string value_of(const rocpd_option& o) {
  const auto& spec = o.spec;
  switch (spec.type) {
    case value_type::boolean:
      return spec.metavar.empty() ? "" : "BOOL";
    case value_type::integer:
      return "INT";
    case value_type::string:
      return std::string(spec.metavar);
    case value_type::string_list:
      return std::string(spec.metavar) + " ...";
    case value_type::choice:
      return "`" + std::string(spec.choices) + "`";
    case value_type::choice_list:
      return "`" + std::string(spec.choices) + "` ...";
    case value_type::group_list:
      return "";
  }
  return "";
}

}  // namespace

int main() {
  for (const auto& command : rocprof::rocpd_cli::rocpd_commands()) {
    std::cout << "### rocpd " << command.name << "\n\n"
              << command.help << ".\n\n"
              << "| Option | Value | Default | Environment | Meaning |\n"
              << "|---|---|---|---|---|\n";
    for (const auto& o : rocprof::rocpd_cli::rocpd_options()) {
      if (!rocprof::rocpd_cli::option_in(o, command.name)) continue;
      const auto& spec = o.spec;
      std::string names;
      if (!spec.short_name.empty()) names += "`-" + std::string(spec.short_name) + "`, ";
      names += "`--" + std::string(spec.long_name) + "`";
      std::string def =
          spec.default_value.empty() ? "" : "`" + std::string(spec.default_value) + "`";
      if (o.required) def = "required";
      std::cout << "| " << names << " | " << value_of(o) << " | " << def << " | "
                << (spec.env.empty() ? "" : "`" + std::string(spec.env) + "`") << " | " << spec.help
                << " |\n";
    }
    std::cout << "\n";
  }
  return 0;
}
