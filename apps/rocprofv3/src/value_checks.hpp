// The values of one pass checked by the rules the tool applies to them (shared through
// rocprof::common), so that a value the tool would refuse is refused here, before launch, with a
// message that names the option or the input file, line and key.
#pragma once

#include <string>
#include <vector>

#include "job.hpp"

namespace rocprof::cli {

// Where `key`'s value came from, for messages: the input file's "file:line: jobs[i]: key 'k'",
// else "argument --long-name".
std::string where_of(const job& config, const std::string& key);

// Regexes (RE2 rules: length, nesting, no backreferences or lookaround), the kernel iteration
// range, counter names, CUDA API function names, collection periods, and the output templates'
// placeholders (`app` is the application's command line, as %argN% sees it). Throws
// usage_error; `prefix` goes in front of the message ("pass_2: ").
void check_pass_values(const job& config, const std::string& prefix,
                       const std::vector<std::string>& app);

}  // namespace rocprof::cli
