#include "capture/host/run/capture_options.hpp"

#include <cstdlib>
#include <stdexcept>

namespace bankcheck::capture {

namespace {
std::string block_list_text(const std::vector<BlockRange>& blocks) {
  std::string text;
  for (const BlockRange& r : blocks) {
    if (!text.empty()) text += ',';
    text += std::to_string(r.first);
    if (r.last != r.first) text += '-' + std::to_string(r.last);
  }
  return text;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> CaptureOptions::to_environment() const {
  std::vector<std::pair<std::string, std::string>> env = {
      {kEnvDir, dir}, {kEnvPatches, patches}, {kEnvRingSlots, std::to_string(ring_slots)}, {kEnvGeneric, generic ? "1" : "0"}};
  if (global) env.emplace_back(kEnvGlobal, "1");
  if (!dedup) env.emplace_back(kEnvDedup, "0");
  if (summary_slots != 0) env.emplace_back(kEnvSummarySlots, std::to_string(summary_slots));
  if (summary_stage != 0) env.emplace_back(kEnvSummaryStage, std::to_string(summary_stage));
  if (max_bytes != 0) env.emplace_back(kEnvMaxBytes, std::to_string(max_bytes));
  if (!filter.kernel_regex.empty()) env.emplace_back(kEnvKernel, filter.kernel_regex);
  if (filter.name_base != KernelNameBase::function) env.emplace_back(kEnvKernelBase, kernel_name_base_text(filter.name_base));
  if (filter.skip != 0) env.emplace_back(kEnvSkip, std::to_string(filter.skip));
  if (filter.count) env.emplace_back(kEnvCount, std::to_string(*filter.count));
  if (!filter.blocks.empty()) env.emplace_back(kEnvBlocks, block_list_text(filter.blocks));
  return env;
}

CaptureOptions CaptureOptions::from_environment(const std::function<std::optional<std::string>(const char*)>& get) {
  CaptureOptions o;
  auto need = [&](const char* name) {
    auto v = get(name);
    if (!v || v->empty()) throw std::invalid_argument(std::string(name) + " is not set");
    return *v;
  };
  auto count = [&](const char* name, const std::string& value) {
    try {
      return parse_count(value, name);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(e.what()));
    }
  };
  o.dir = need(kEnvDir);
  o.patches = need(kEnvPatches);
  if (auto v = get(kEnvKernel)) o.filter.kernel_regex = *v;
  if (auto v = get(kEnvKernelBase)) {
    try {
      o.filter.name_base = parse_kernel_name_base(*v);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(kEnvKernelBase) + ": " + e.what());
    }
  }
  if (auto v = get(kEnvSkip)) o.filter.skip = count(kEnvSkip, *v);
  if (auto v = get(kEnvCount)) o.filter.count = count(kEnvCount, *v);
  if (auto v = get(kEnvBlocks)) o.filter.blocks = parse_block_list(*v);
  if (auto v = get(kEnvRingSlots)) {
    o.ring_slots = count(kEnvRingSlots, *v);
    if (o.ring_slots == 0 || (o.ring_slots & (o.ring_slots - 1)) != 0 || o.ring_slots > kMaxRingSlots)
      throw std::invalid_argument(std::string(kEnvRingSlots) + " must be a power of two in 1.." +
                                  std::to_string(kMaxRingSlots) + " (got " + *v + ")");
  }
  if (auto v = get(kEnvSummarySlots)) {
    o.summary_slots = count(kEnvSummarySlots, *v);
    if (!is_valid_summary_slots(o.summary_slots))
      throw std::invalid_argument(std::string(kEnvSummarySlots) + " must be a power of two in 1.." +
                                  std::to_string(kMaxSummarySlots) + " (got " + *v + ")");
  }
  if (auto v = get(kEnvMaxBytes)) o.max_bytes = count(kEnvMaxBytes, *v);
  if (auto v = get(kEnvSummaryStage)) {
    if (v->size() != 1 || (*v)[0] < '0' || (*v)[0] > '3')
      throw std::invalid_argument(std::string(kEnvSummaryStage) + " must be 0, 1, 2 or 3 (got " + *v + ")");
    o.summary_stage = static_cast<std::uint32_t>((*v)[0] - '0');
  }
  auto flag = [&](const char* name, bool& value) {
    auto v = get(name);
    if (!v) return;
    if (*v != "0" && *v != "1") throw std::invalid_argument(std::string(name) + " must be 0 or 1 (got " + *v + ")");
    value = *v == "1";
  };
  flag(kEnvGeneric, o.generic);
  flag(kEnvGlobal, o.global);
  flag(kEnvDedup, o.dedup);
  if (o.global && o.summary_slots != 0)
    throw std::invalid_argument(std::string(kEnvGlobal) + "=1 records global accesses into traces; it cannot be combined with " +
                                kEnvSummarySlots + " (the summary costs shared-memory accesses only)");
  return o;
}

std::optional<std::string> environment_variable(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

}  // namespace bankcheck::capture
