// The shipped share/rocprofiler-sdk/counter_defs.yaml: it loads cleanly, defines rocprofv3's
// names, uses only NVIDIA metrics that exist on each architecture it names, describes what each
// is built from, and gives the expected values on a synthetic H100 dispatch.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "metric_list.hpp"
#include "rocprof/counters/catalogue.hpp"
#include "rocprof/counters/definitions.hpp"

namespace rc = rocprof::counters;
using counters_test::chip_base_counters;
using counters_test::chip_metrics;
using counters_test::chip_of;

namespace {

const std::vector<std::string> rocprofv3_names = {
    "SQ_WAVES",      "SQ_WAVE_CYCLES",  "SQ_BUSY_CYCLES",     "SQ_INSTS_VALU",
    "SQ_INSTS_SALU", "SQ_INSTS_LDS",    "SQ_INSTS_VMEM_RD",   "SQ_INSTS_VMEM_WR",
    "GRBM_COUNT",    "GRBM_GUI_ACTIVE", "FETCH_SIZE",         "WRITE_SIZE",
    "TCC_HIT",       "TCC_MISS",        "TCC_HIT_sum",        "TCC_MISS_sum",
    "GPUBusy",       "Wavefronts",      "VALUInsts",          "SALUInsts",
    "MemUnitBusy",   "L2CacheHit",      "MeanOccupancyPerCU", "CU_NUM",
    "SIMD_NUM",      "SE_NUM"};

const std::vector<std::string> architectures = {"sm_80", "sm_86",  "sm_89",
                                                "sm_90", "sm_100", "sm_120"};

// Agent properties the backend supplies as constants (README.md).
const std::set<std::string> agent_properties = {"simd_count", "simd_per_cu", "array_count",
                                                "simd_arrays_per_engine", "wave_front_size"};

const rc::definition_set& shipped() {
  static const rc::load_result loaded = rc::load_definitions_file(ROCPROF_TEST_COUNTER_DEFS);
  return loaded.definitions;
}

bool is_nvidia_metric(const std::string& name) {
  return name.find("__") != std::string::npos;
}

// Every NVIDIA metric a counter needs on an architecture, through other shipped counters.
std::set<std::string> nvidia_metrics_of(const std::string& counter, const std::string& arch) {
  std::set<std::string> out;
  const auto* entry = shipped().find(counter);
  if (entry == nullptr) return out;
  const auto* def = entry->for_architecture(arch);
  if (def == nullptr || !def->parsed) return out;
  for (const auto& ref : def->parsed->references()) {
    if (is_nvidia_metric(ref)) {
      out.insert(ref);
    } else {
      const auto inner = nvidia_metrics_of(ref, arch);
      out.insert(inner.begin(), inner.end());
    }
  }
  return out;
}

std::string base_metric_of(const std::string& metric) {
  return metric.substr(0, metric.find('.'));
}

}  // namespace

TEST(shipped_definitions, load_without_errors_or_warnings) {
  const auto loaded = rc::load_definitions_file(ROCPROF_TEST_COUNTER_DEFS);
  for (const auto& e : loaded.errors)
    ADD_FAILURE() << e;
  for (const auto& w : loaded.warnings)
    ADD_FAILURE() << w;
  for (const auto& name : rocprofv3_names) {
    const auto* entry = shipped().find(name);
    ASSERT_NE(entry, nullptr) << name;
    for (const auto& arch : architectures)
      EXPECT_NE(entry->for_architecture(arch), nullptr) << name << " on " << arch;
  }
}

TEST(shipped_definitions, every_nvidia_metric_exists_on_each_architecture_named) {
  for (const auto& arch : architectures) {
    std::map<std::string, std::string> types;
    for (const auto& m : chip_metrics(chip_of(arch)))
      types[m.name] = m.type;
    ASSERT_FALSE(types.empty()) << arch;
    for (const auto& entry : shipped().counters()) {
      const auto* def = entry.for_architecture(arch);
      if (def == nullptr) continue;
      for (const auto& ref : def->parsed->references()) {
        if (!is_nvidia_metric(ref)) {
          const auto* other = shipped().find(ref);
          EXPECT_TRUE(agent_properties.count(ref) != 0 ||
                      (other != nullptr && other->for_architecture(arch) != nullptr))
              << entry.name << " on " << arch << " uses " << ref;
          continue;
        }
        const std::string base = base_metric_of(ref);
        const auto it = types.find(base);
        ASSERT_NE(it, types.end()) << entry.name << " on " << arch << ": " << base
                                   << " is not a metric of " << chip_of(arch);
        const std::string rollup = ref.substr(base.size() + 1);
        const std::string first = rollup.substr(0, rollup.find('.'));
        if (it->second == "COUNTER") {
          EXPECT_TRUE(first == "sum" || first == "avg" || first == "min" || first == "max")
              << ref << ": a counter needs a roll-up";
        }
      }
    }
  }
}

TEST(shipped_definitions, the_gh100_list_is_complete) {
  // The copy in tests/data is the whole list of shared/reference/nvidia-metrics (3 650 names).
  EXPECT_EQ(chip_metrics("GH100").size(), 3650u);
}

TEST(shipped_definitions, descriptions_say_what_each_is_built_from) {
  for (const auto& entry : shipped().counters()) {
    EXPECT_NE(entry.description.find("NVIDIA"), std::string::npos) << entry.name;
    for (const auto& def : entry.definitions) {
      for (const auto& ref : def.parsed->references()) {
        if (entry.description.find(is_nvidia_metric(ref) ? base_metric_of(ref) : ref) !=
            std::string::npos)
          continue;
        // A counter built on another shipped counter may name that counter's metrics instead.
        for (const auto& metric : nvidia_metrics_of(ref, def.architectures.front()))
          EXPECT_NE(entry.description.find(base_metric_of(metric)), std::string::npos)
              << entry.name << " does not say it uses " << ref << " (" << metric << ")";
      }
    }
  }
}

TEST(shipped_definitions, every_counter_is_offered_on_every_architecture) {
  for (const auto& arch : architectures) {
    rc::counter_id_registry ids;
    rc::agent_catalogue cat(arch, chip_base_counters(chip_of(arch)), shipped(), ids);
    for (const auto& entry : shipped().counters()) {
      EXPECT_NE(cat.find(entry.name), nullptr)
          << entry.name << " on " << arch << ": " << cat.why_unavailable(entry.name);
    }
    EXPECT_TRUE(cat.notes().empty()) << cat.notes().front();
  }
}

TEST(shipped_definitions, values_on_a_synthetic_h100_dispatch) {
  rc::counter_id_registry ids;
  const rc::agent_catalogue cat("sm_90", chip_base_counters("GH100"), shipped(), ids);
  // A kernel of 1 024 blocks of 256 threads moving 4 MiB in and 2 MiB out.
  std::map<std::string, rc::counter_value, std::less<>> collected;
  const auto set = [&](const std::string& name, double v) {
    collected[name] = rc::counter_value::scalar(v);
  };
  set("smsp__warps_launched.sum", 8192);
  set("sm__warps_active.sum", 132.0 * 900 * 16);  // 16 warps resident per SM while busy
  set("gpc__cycles_active.sum", 8 * 900);
  set("gpc__cycles_active.max", 900);
  set("gpc__cycles_elapsed.max", 1000);
  set("dram__bytes_read.sum", 4 << 20);
  set("dram__bytes_write.sum", 2 << 20);
  set("lts__t_sectors_lookup_hit.sum", 750);
  set("lts__t_sectors_lookup_miss.sum", 250);
  set("l1tex__cycles_active.max", 450);
  for (const char* pipe : {"alu", "fma", "fp64", "xu", "tensor"})
    set(std::string("smsp__inst_executed_pipe_") + pipe + ".sum", 8192);
  set("smsp__inst_executed_pipe_uniform.sum", 4096);
  const rc::base_value_lookup lookup = [&](std::string_view name) -> const rc::counter_value* {
    const auto it = collected.find(name);
    return it == collected.end() ? nullptr : &it->second;
  };
  const auto value = [&](const std::string& name) {
    const auto v = cat.evaluate(name, lookup);
    EXPECT_TRUE(v.ok()) << name << ": " << (v ? "" : v.failure().message);
    return v ? v->total() : -1.0;
  };
  EXPECT_DOUBLE_EQ(value("SQ_WAVES"), 8192);
  EXPECT_DOUBLE_EQ(value("Wavefronts"), 8192);
  EXPECT_DOUBLE_EQ(value("FETCH_SIZE"), 4096);  // KiB, as rocprofv3
  EXPECT_DOUBLE_EQ(value("WRITE_SIZE"), 2048);
  EXPECT_DOUBLE_EQ(value("GRBM_COUNT"), 1000);
  EXPECT_DOUBLE_EQ(value("GPUBusy"), 90);
  EXPECT_DOUBLE_EQ(value("L2CacheHit"), 75);
  EXPECT_DOUBLE_EQ(value("TCC_HIT_sum"), 750);
  EXPECT_DOUBLE_EQ(value("MemUnitBusy"), 50);
  EXPECT_DOUBLE_EQ(value("MeanOccupancyPerCU"), 16);
  EXPECT_DOUBLE_EQ(value("VALUInsts"), 5);
  EXPECT_DOUBLE_EQ(value("SALUInsts"), 0.5);
  EXPECT_DOUBLE_EQ(value("SQ_BUSY_CYCLES"), 7200);
  EXPECT_DOUBLE_EQ(value("CU_NUM"), 132);
  EXPECT_DOUBLE_EQ(value("SIMD_NUM"), 528);
  EXPECT_DOUBLE_EQ(value("SE_NUM"), 8);
  EXPECT_DOUBLE_EQ(value("MAX_WAVE_SIZE"), 32);
  // Counters needing nothing collected are constants; the others name what to collect.
  EXPECT_TRUE(cat.find("CU_NUM")->is_constant);
  EXPECT_EQ(*cat.required_base_counters("GPUBusy"),
            (std::vector<std::string>{"gpc__cycles_active.max", "gpc__cycles_elapsed.max"}));
  // NVIDIA metrics are offered by their own names beside rocprofv3's.
  EXPECT_NE(cat.find("dram__bytes_read.sum"), nullptr);
  EXPECT_EQ(cat.closest_names("SQ_WAVE")[0], "SQ_WAVES");
  EXPECT_EQ(cat.closest_names("smsp__warps_launched")[0], "smsp__warps_launched.avg");
}
