// The text of `nvdisasm -c` (the CUDA toolkit's disassembler) as a table: per function (the
// mangled name of its `.text.<name>` section), per SASS offset (the `/*0a30*/` column, relative
// to the function, as CUPTI's pcOffset is) the instruction text without its trailing ` ;`,
// predicate kept (`@!P0 BRA `(.L_x_0)`). Pure: unit tests feed it captured nvdisasm output.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace rocprof::cuda {

using sass_function = std::map<uint64_t, std::string>;  // offset -> instruction text
using sass_listing = std::map<std::string, sass_function, std::less<>>;  // function -> its code

// Every instruction line of `text` under the function section it follows. Directives, labels,
// comments (`//## File ..., line N` of -g) and lines outside a .text section are skipped.
sass_listing parse_nvdisasm(std::string_view text);

// The instruction text of one `/*offset*/ text ;` line; false when the line is not one.
bool parse_sass_line(std::string_view line, uint64_t& offset, std::string& text);

}  // namespace rocprof::cuda
