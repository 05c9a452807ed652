// Value syntaxes shared by the CLI (writer) and the tool library (reader).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprof::config {

// rocprofv3's BOOL words, case-insensitive: y yes t true on 1 / n no f false off 0.
// Anything else: std::nullopt (the CLI reports it as an error).
std::optional<bool> parse_bool_word(std::string_view text);

// The tool's reading of a boolean environment value: false for 0 off false no n f
// (case-insensitive), a digit string is false only when it is zero, any other non-empty text is
// true. Empty text: std::nullopt (an error).
std::optional<bool> parse_env_bool(std::string_view text);

// A non-negative integer in decimal, or hexadecimal with a 0x prefix. std::nullopt otherwise.
std::optional<uint64_t> parse_integer(std::string_view text);

// Splits on any of `separators`, dropping empty pieces.
std::vector<std::string> split_any(std::string_view text, std::string_view separators);

// Splits on a whole separator string (e.g. "##@@##"), dropping empty pieces.
std::vector<std::string> split_on(std::string_view text, std::string_view separator);

std::string join(const std::vector<std::string>& parts, std::string_view separator);
std::string to_lower(std::string_view text);
std::string to_upper(std::string_view text);
bool equal_ignoring_case(std::string_view a, std::string_view b);

// The counter names of a "pmc: A B,C" line as the tool reads it: text after '#' dropped, text
// after the first "pmc:" taken, punctuation treated as separators, duplicates dropped (first
// occurrence kept; linear time). A ":device=N" suffix stays attached to its counter.
//
// Deviation from rocprofv3, on purpose: '.' is not a separator. rocprofv3 turns every
// punctuation character into a space, which would cut NVIDIA's metric names
// (smsp__inst_executed.sum, dram__bytes_read.sum.per_second) into pieces; AMD's counter names
// never contain '.', so they read the same either way.
std::vector<std::string> parse_pmc_line(std::string_view line);

// A counter request "NAME" or "NAME:device=N" (rocprofv3: collect NAME only on the GPU whose
// type-relative index is N).
struct counter_request {
  std::string name;
  std::optional<uint64_t> device;
};
// std::nullopt when the text after ':' is not "device=<decimal>".
std::optional<counter_request> parse_counter_request(std::string_view text);

inline constexpr size_t k_counter_name_max_length = 1024;  // bytes

// Why `name` (one name of parse_pmc_line()) cannot be a counter name, or an empty string: it
// must be valid UTF-8 without control characters and at most k_counter_name_max_length bytes.
// The CLI and the tool apply this one rule.
std::string counter_name_problem(std::string_view name);

}  // namespace rocprof::config
