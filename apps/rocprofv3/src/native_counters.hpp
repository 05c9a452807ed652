// What a GPU backend can measure on one chip, as the CLI needs it before the application starts
// (checking --pmc, planning passes, --list-avail): the chip's native counters and the number of
// hardware passes a set of them takes. Vendor free: the CUDA backend answers through its
// offline entry points (core_agents.hpp opens it); tests answer with a fake.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocprof::cli {

// A native base counter. Collectable names are the base name followed by one suffix of its
// sub-counter set (NVIDIA: roll-ups and sub-metrics, ".sum", ".avg.per_second", ...); a backend
// whose counters take no suffix lists one set holding "".
struct native_counter {
  std::string name;
  std::string type;         // "counter", "ratio", "throughput"
  std::string description;  // may be empty
  std::string block;        // hardware unit (NVIDIA: sm, smsp, dram, lts, ...)
  std::string unit;         // what it counts (warp, byte, cycle, percent, ...)
  size_t suffix_set = 0;    // index into native_listing::suffix_sets
};

class native_listing {
 public:
  std::string chip;          // the chip listed (an architecture stands for its first chip)
  std::string architecture;  // "sm_90": the definitions YAML's name for it
  std::string error;         // why nothing is listed; empty when fine
  size_t max_per_pass = 0;   // hardware counters one pass holds (0: unknown)
  std::vector<native_counter> counters;
  std::vector<std::vector<std::string>> suffix_sets;

  // Builds the lookup tables; call after filling the fields above.
  void index();
  // The base counter a collectable name names, or nullptr (`suffix` receives the rest).
  const native_counter* base_of(std::string_view full_name, std::string* suffix = nullptr) const;
  bool has(std::string_view full_name) const;
  // Why a name is not collectable, when its base is known ("'.summ' is not a roll-up or
  // sub-metric of smsp__warps_launched"); empty otherwise.
  std::string why_not(std::string_view full_name) const;
  // Every collectable name (NVIDIA GH100: 150 179), built on first use.
  const std::vector<std::string>& full_names() const;

 private:
  std::unordered_map<std::string, size_t> by_name_;
  mutable std::vector<std::string> full_names_;
};

// Reads the CUDA plugin's metric listing (rocprof_cuda_list_metrics_json).
native_listing parse_native_listing(std::string_view json);

class counter_backend {
 public:
  virtual ~counter_backend() = default;
  // The native counters of a chip or architecture ("GH100", "sm_90"); cached by the caller.
  virtual native_listing list(const std::string& chip) = 0;
  // Hardware passes these collectable names take together on `chip`; 0 when the backend
  // refuses them, with the reason in `why`.
  virtual size_t count_passes(const std::string& chip, const std::vector<std::string>& names,
                              std::string& why) = 0;
  // What the two answers come from (library files with their sizes and times, versions): equal
  // texts give equal answers, so a check that passed can be kept across runs. Empty: unknown,
  // nothing is kept.
  virtual std::string source() { return {}; }
};

// Listings by chip, each read once.
class native_listings {
 public:
  explicit native_listings(counter_backend& backend) : backend_(&backend) {}
  const native_listing& of(const std::string& chip);
  counter_backend& backend() { return *backend_; }

 private:
  counter_backend* backend_;
  std::map<std::string, native_listing> listings_;
};

}  // namespace rocprof::cli
