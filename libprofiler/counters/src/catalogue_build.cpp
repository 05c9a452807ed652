// Building an agent's catalogue: index the backend's base counters, pick the definitions for the
// agent's architecture, resolve every reference (depth first, with cycle detection and a depth
// limit), infer each derived counter's dimensions by evaluating it on zero values of the base
// counters' shapes, and assign ids.
#include <algorithm>

#include "catalogue_evaluator.hpp"
#include "rocprof/counters/catalogue.hpp"

namespace rocprof::counters {

base_counter agent_constant(std::string name, double value, std::string description) {
  base_counter c;
  c.name = std::move(name);
  c.description = std::move(description);
  c.block = "constant";
  c.is_constant = true;
  c.constant_value = value;
  return c;
}

namespace {

std::string architecture_list(const counter_entry& entry) {
  std::vector<std::string> archs;
  for (const auto& def : entry.definitions)
    for (const auto& a : def.architectures)
      archs.push_back(a);
  std::string out;
  for (size_t i = 0; i < archs.size() && i < 8; ++i)
    out += (i == 0 ? "" : ", ") + archs[i];
  if (archs.size() > 8) out += ", ...";
  return out;
}

}  // namespace

class catalogue_builder {
 public:
  explicit catalogue_builder(agent_catalogue& cat)
      : cat_(cat), shapes_(cat, [](const base_counter& b) { return zero_of(b); }) {}

  void build(counter_id_registry& ids) {
    index_base();
    collect_candidates();
    for (const auto& name : order_)
      resolve(name);
    list_offered(ids);
  }

 private:
  enum class state { unvisited, visiting, available, unavailable };
  struct candidate {
    agent_catalogue::derived_counter where;
    state status = state::unvisited;
    size_t depth = 0;  // 1 + the deepest derived counter it references
    std::vector<dimension> dimensions;
  };

  static result<counter_value> zero_of(const base_counter& b) {
    if (b.is_constant) return counter_value::filled(b.dimensions, b.constant_value);
    return counter_value::filled(b.dimensions, 0.0);
  }

  void index_base() {
    for (size_t i = 0; i < cat_.base_.size(); ++i) {
      const auto& name = cat_.base_[i].name;
      if (!cat_.base_index_.emplace(name, i).second)
        cat_.notes_.push_back("base counter '" + name + "' listed twice; the first is kept");
    }
  }

  void collect_candidates() {
    const auto& entries = cat_.definitions_.counters();
    for (size_t e = 0; e < entries.size(); ++e) {
      const auto& entry = entries[e];
      const bool native = cat_.base_index_.count(entry.name) != 0;
      const counter_definition* def = entry.for_architecture(cat_.architecture_);
      if (def == nullptr) {
        if (!native)
          cat_.unavailable_[entry.name] =
              "it is defined for " + architecture_list(entry) + ", not for " + cat_.architecture_;
        continue;
      }
      if (native) {
        cat_.notes_.push_back(location_text(def->location) + ": the definition of '" + entry.name +
                              "' is not used: " + cat_.architecture_ +
                              " has a native counter of that name");
        continue;
      }
      if (!def->parsed) {
        cat_.unavailable_[entry.name] = "it is a hardware counter (block " + def->block +
                                        ", event " + def->event + ") and agent " +
                                        cat_.architecture_ + " has no native counter of that name";
        continue;
      }
      candidate c;
      c.where.entry = e;
      c.where.definition = static_cast<size_t>(def - entry.definitions.data());
      candidates_.emplace(entry.name, c);
      order_.push_back(entry.name);
    }
  }

  // Why a reference fails, with the root cause of an unavailable one (only the root: reasons
  // stay short however long a chain of unavailable counters is).
  std::string reason_for_reference(const std::string& ref, std::string& root) const {
    const std::string* cause = nullptr;
    if (const auto it = root_cause_.find(ref); it != root_cause_.end()) {
      cause = &it->second;
    } else if (const auto other = cat_.unavailable_.find(ref); other != cat_.unavailable_.end()) {
      cause = &other->second;  // not a candidate here, e.g. defined for other architectures
    }
    if (cause == nullptr) {
      root = "needs '" + ref + "', which agent " + cat_.architecture_ + " does not provide";
      return root;
    }
    root = *cause;
    return "needs '" + ref + "', which is not available (" + root + ")";
  }

  void mark_unavailable(const std::string& name, std::string reason, std::string root = {}) {
    candidates_.at(name).status = state::unavailable;
    root_cause_[name] = root.empty() ? reason : std::move(root);
    cat_.unavailable_[name] = std::move(reason);
  }

  // accumulate() needs a collected base counter, and HIGH_RES/LOW_RES one that the hardware
  // accumulates per cycle.
  std::string check_accumulate(const expression& expr) const {
    for (const auto& n : expr.nodes) {
      if (n.kind != node_kind::accumulate) continue;
      const auto b = cat_.base_index_.find(n.name);
      if (b == cat_.base_index_.end() || cat_.base_[b->second].is_constant)
        return "accumulate() needs a native counter of agent " + cat_.architecture_ + "; '" +
               n.name + "' is not one";
      if (n.accumulation != accumulate_mode::none && !cat_.base_[b->second].accumulates_per_cycle)
        return "accumulate(" + n.name +
               ", HIGH_RES/LOW_RES) needs a counter the hardware accumulates every cycle; '" +
               n.name + "' is not one (use NONE)";
    }
    return {};
  }

  // Depth-first resolution with an explicit stack (a user's file may chain thousands of
  // counters): a counter is finished once every counter it references is.
  struct frame {
    std::string name;
    std::vector<std::string> refs;
    size_t next = 0;
  };

  void resolve(const std::string& root) {
    if (candidates_.at(root).status != state::unvisited) return;
    std::vector<frame> stack;
    push(stack, root);
    while (!stack.empty()) {
      frame& top = stack.back();
      if (top.next == top.refs.size()) {
        finish(top.name);
        stack.pop_back();
        continue;
      }
      const std::string ref = top.refs[top.next++];
      const auto it = candidates_.find(ref);
      if (it == candidates_.end()) continue;  // base, or missing: finish() tells which
      if (it->second.status == state::visiting) {
        mark_cycle(stack, ref);
      } else if (it->second.status == state::unvisited) {
        push(stack, ref);  // invalidates `top`
      }
    }
  }

  void push(std::vector<frame>& stack, const std::string& name) {
    candidate& c = candidates_.at(name);
    c.status = state::visiting;
    stack.push_back({name, cat_.definition_of(c.where).parsed->references(), 0});
  }

  void mark_cycle(const std::vector<frame>& stack, const std::string& name) {
    auto start = stack.begin();
    while (start != stack.end() && start->name != name)
      ++start;
    std::string path;
    for (auto it = start; it != stack.end(); ++it)
      path += it->name + " -> ";
    path += name;
    for (auto it = start; it != stack.end(); ++it)
      mark_unavailable(it->name, "its definition is circular: " + path);
  }

  void finish(const std::string& name) {
    candidate& c = candidates_.at(name);
    if (c.status == state::unavailable) return;  // part of a cycle
    const auto& def = cat_.definition_of(c.where);
    std::string failure = check_accumulate(*def.parsed);
    std::string root;
    size_t depth = 1;
    for (const auto& ref : def.parsed->references()) {
      if (!failure.empty()) break;
      if (cat_.base_index_.count(ref) != 0) continue;
      const auto it = candidates_.find(ref);
      if (it == candidates_.end() || it->second.status != state::available)
        failure = reason_for_reference(ref, root);
      else
        depth = std::max(depth, it->second.depth + 1);
    }
    if (failure.empty() && depth > max_derivation_depth)
      failure = "derived counters are nested deeper than " + std::to_string(max_derivation_depth) +
                " here";
    if (!failure.empty()) return mark_unavailable(name, failure, root);
    auto shape = shapes_.evaluate_derived(name, c.where);
    if (!shape) return mark_unavailable(name, expression_problem(def, name, shape.failure()));
    c.status = state::available;
    c.depth = depth;
    c.dimensions = shape->dimensions();
    cat_.derived_index_.emplace(name, cat_.derived_.size());
    cat_.derived_.push_back(c.where);
  }

  void list_offered(counter_id_registry& ids) {
    // Derived counters in the definitions' order; their ids first, so that they do not depend
    // on how many native counters the backend lists.
    auto& derived = cat_.derived_;
    std::sort(derived.begin(), derived.end(),
              [](const auto& a, const auto& b) { return a.entry < b.entry; });
    cat_.derived_index_.clear();
    std::vector<counter_info> derived_infos;
    for (size_t i = 0; i < derived.size(); ++i) {
      const auto& entry = cat_.entry_of(derived[i]);
      const auto& def = cat_.definition_of(derived[i]);
      cat_.derived_index_.emplace(entry.name, i);
      counter_info info;
      info.id = ids.id_of(entry.name);
      info.name = entry.name;
      info.description = def.description.empty() ? entry.description : def.description;
      info.expression = def.expression;
      info.is_derived = true;
      info.dimensions = candidates_.at(entry.name).dimensions;
      derived_infos.push_back(std::move(info));
    }
    for (const auto& b : cat_.base_) {
      if (cat_.offered_by_name_.count(b.name) != 0) continue;  // duplicate base name
      counter_info info;
      info.id = ids.id_of(b.name);
      info.name = b.name;
      info.description = b.description;
      info.block = b.block;
      info.is_constant = b.is_constant;
      info.dimensions = b.dimensions;
      add_offered(std::move(info));
    }
    for (auto& info : derived_infos)
      add_offered(std::move(info));
    // A derived counter built only from constants (CU_NUM, ...) is a constant too.
    for (auto& info : cat_.offered_) {
      if (!info.is_derived) continue;
      const auto needs = cat_.required_base_counters(info.name);
      info.is_constant = needs && needs->empty();
    }
  }

  void add_offered(counter_info info) {
    cat_.offered_by_name_.emplace(info.name, cat_.offered_.size());
    cat_.offered_by_id_.emplace(info.id, cat_.offered_.size());
    cat_.offered_.push_back(std::move(info));
  }

  agent_catalogue& cat_;
  catalogue_evaluator shapes_;
  std::unordered_map<std::string, candidate> candidates_;
  std::unordered_map<std::string, std::string> root_cause_;  // unavailable name -> first cause
  std::vector<std::string> order_;
};

agent_catalogue::agent_catalogue(std::string architecture, std::vector<base_counter> base,
                                 const definition_set& definitions, counter_id_registry& ids)
    : architecture_(std::move(architecture)), definitions_(definitions), base_(std::move(base)) {
  catalogue_builder(*this).build(ids);
}

}  // namespace rocprof::counters
