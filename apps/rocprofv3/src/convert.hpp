// Typed, validated values from command-line words and from input-file (JSON/YAML) nodes,
// driven by the schema row's type and choices.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "job.hpp"
#include "rocprof/config/schema.hpp"

namespace rocprof::cli {

// `words` are the values given to one option on the command line (empty for a bare flag).
// Throws usage_error naming the option.
option_value from_words(const config::option_spec& spec, const std::vector<std::string>& words);

// `where` names the file, the line when known, and the key, for messages.
option_value from_json(const config::option_spec& spec, const nlohmann::json& node,
                       const std::string& where);

}  // namespace rocprof::cli
