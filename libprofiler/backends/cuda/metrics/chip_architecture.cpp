#include "chip_architecture.hpp"

#include <cctype>
#include <cstdlib>

namespace rocprof::cuda {
namespace {

// Compute capabilities per product: NVIDIA's "CUDA GPU Compute Capability" pages
// (developer.nvidia.com/cuda-gpus and /cuda-legacy-gpus). Chip per product: NVIDIA's
// architecture whitepapers (Volta, Turing, Ampere GA100 and GA102, Ada, Hopper, Blackwell) and
// the Jetson module data sheets. Rows marked inferred have no NVIDIA page that pairs the chip
// name with a product; they follow the naming (a trailing B = integrated/Tegra part, GB1xx =
// data centre, GB2xx = client Blackwell) and the SM versions libnvperf_host 2025.3 carries
// (sm_100, sm_101/sm_110, sm_103, sm_120), and GB102 enumerates exactly GB100's 4 065 metrics.
const std::vector<chip_architecture> k_chips = {
    {"GV100", 7, 0, "Tesla V100, TITAN V", false},
    {"GV11B", 7, 2, "Jetson AGX Xavier", false},
    {"TU102", 7, 5, "TITAN RTX, RTX 2080 Ti", false},
    {"TU104", 7, 5, "Tesla T4, RTX 2080", false},
    {"TU106", 7, 5, "RTX 2070", false},
    {"TU116", 7, 5, "GTX 1660 Ti", false},
    {"TU117", 7, 5, "GTX 1650", false},
    {"GA100", 8, 0, "A100, A30", false},
    {"GA102", 8, 6, "A40, A10, RTX 3090", false},
    {"GA103", 8, 6, "RTX 3080 Ti Laptop", false},
    {"GA104", 8, 6, "A16, RTX 3070", false},
    {"GA106", 8, 6, "RTX 3060, A2000", false},
    {"GA107", 8, 6, "A2, RTX 3050", false},
    {"GA10B", 8, 7, "Jetson AGX Orin", false},
    {"GH100", 9, 0, "H100, H200, GH200", false},
    {"AD102", 8, 9, "L40, RTX 4090, RTX 6000 Ada", false},
    {"AD103", 8, 9, "RTX 4080", false},
    {"AD104", 8, 9, "L4, RTX 4070", false},
    {"AD106", 8, 9, "RTX 4060 Ti", false},
    {"AD107", 8, 9, "RTX 4060", false},
    {"GB100", 10, 0, "B200, GB200", false},
    {"GB102", 10, 0, "B200-class (variant)", true},
    {"GB110", 10, 3, "B300, GB300", true},
    {"GB10B", 11, 0, "Jetson T5000 (Thor)", true},
    {"GB202", 12, 0, "RTX 5090, RTX PRO 6000 Blackwell", false},
    {"GB203", 12, 0, "RTX 5080", false},
    {"GB205", 12, 0, "RTX 5070", false},
    {"GB206", 12, 0, "RTX 5060", false},
    {"GB207", 12, 0, "RTX 5050", false},
    {"GB20B", 12, 1, "GB10 (DGX Spark)", true},
};

bool same_letters(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  return true;
}

}  // namespace

const std::vector<chip_architecture>& known_chip_architectures() {
  return k_chips;
}

std::string architecture_name(int major, int minor) {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::optional<std::pair<int, int>> parse_architecture(std::string_view text) {
  if (text.size() > 2 && same_letters(text.substr(0, 2), "sm")) {
    text.remove_prefix(2);
    if (!text.empty() && text.front() == '_') text.remove_prefix(1);
  }
  if (const size_t dot = text.find('.'); dot != std::string_view::npos) {
    const std::string_view major = text.substr(0, dot);
    const std::string_view minor = text.substr(dot + 1);
    if (!all_digits(major) || minor.size() != 1 || !all_digits(minor) || major.size() > 2)
      return std::nullopt;
    return std::make_pair(std::atoi(std::string{major}.c_str()), minor.front() - '0');
  }
  // "90", "103": the last digit is the minor version.
  if (text.size() < 2 || text.size() > 3 || !all_digits(text)) return std::nullopt;
  return std::make_pair(std::atoi(std::string{text.substr(0, text.size() - 1)}.c_str()),
                        text.back() - '0');
}

std::optional<chip_architecture> find_chip(std::string_view chip) {
  for (const chip_architecture& row : k_chips)
    if (same_letters(row.chip, chip)) return row;
  return std::nullopt;
}

std::string architecture_of_chip(std::string_view chip) {
  const auto row = find_chip(chip);
  return row ? architecture_name(row->major, row->minor) : std::string{};
}

std::vector<std::string> chips_of_architecture(std::string_view architecture) {
  std::vector<std::string> out;
  const auto cc = parse_architecture(architecture);
  if (!cc) return out;
  for (const chip_architecture& row : k_chips)
    if (row.major == cc->first && row.minor == cc->second) out.emplace_back(row.chip);
  return out;
}

std::string representative_chip(std::string_view architecture) {
  const auto chips = chips_of_architecture(architecture);
  return chips.empty() ? std::string{} : chips.front();
}

std::string resolve_chip(std::string_view name) {
  if (const auto row = find_chip(name)) return row->chip;
  if (std::string chip = representative_chip(name); !chip.empty()) return chip;
  return std::string{name};
}

}  // namespace rocprof::cuda
