// NVIDIA chip names (what cuptiDeviceGetChipName returns and the profiler host API takes) and
// architectures in the counter-definitions YAML's spelling (`sm_90`, from the device's compute
// capability 9.0). One table covers every chip CUPTI 13.0 lists (GV100 ... GB20B); each row
// says where its mapping comes from (chip_architecture.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprof::cuda {

struct chip_architecture {
  const char* chip;  // "GH100"
  int major;         // compute capability
  int minor;
  const char* products;  // a product built on the chip, for people
  bool inferred;         // true: no NVIDIA page names chip and compute capability together
};

// Every row, in CUPTI's listing order.
const std::vector<chip_architecture>& known_chip_architectures();

// "sm_<major><minor>": architecture_name(9, 0) == "sm_90", (10, 3) == "sm_103".
std::string architecture_name(int major, int minor);

// Accepts "sm_90", "sm90", "SM_90", "9.0" or "90"; nullopt for anything else.
std::optional<std::pair<int, int>> parse_architecture(std::string_view text);

// The row of a chip (case-insensitive), if known.
std::optional<chip_architecture> find_chip(std::string_view chip);

// "sm_90" for "GH100"; empty for an unknown chip.
std::string architecture_of_chip(std::string_view chip);

// The chips of an architecture ("sm_86" → GA102 GA103 GA104 GA106 GA107), in table order.
std::vector<std::string> chips_of_architecture(std::string_view architecture);

// The chip whose metric catalogue stands for an architecture offline (the first of
// chips_of_architecture: GH100 for sm_90, GA102 for sm_86); empty when none.
std::string representative_chip(std::string_view architecture);

// A chip name as given, or the representative chip when `name` is an architecture.
std::string resolve_chip(std::string_view name);

}  // namespace rocprof::cuda
