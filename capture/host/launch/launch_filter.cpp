#include "capture/host/launch/launch_filter.hpp"

#include <charconv>
#include <stdexcept>

namespace bankcheck::capture {

std::uint64_t parse_count(std::string_view text, std::string_view what) {
  std::uint64_t value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value, 10);
  if (text.empty() || r.ptr != text.data() + text.size() || r.ec != std::errc{})
    throw std::invalid_argument(std::string(what) + " must be an integer in 0..18446744073709551615 (got '" +
                                std::string(text) + "')");
  return value;
}

std::vector<BlockRange> parse_block_list(std::string_view text) {
  const std::string form = " (expected block ids or ranges like 0-3,7; ids in 0..18446744073709551615, at most " +
                           std::to_string(kMaxBlockRanges) + " parts)";
  if (text.empty()) throw std::invalid_argument("--blocks is empty" + form);
  std::vector<BlockRange> ranges;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (comma != std::string_view::npos && text.empty()) throw std::invalid_argument("--blocks ends with ','" + form);
    const std::size_t dash = part.find('-');
    BlockRange range;
    try {
      range.first = parse_count(part.substr(0, dash), "a block id");
      range.last = dash == std::string_view::npos ? range.first : parse_count(part.substr(dash + 1), "a block id");
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("--blocks: bad part '" + std::string(part) + "'" + form);
    }
    if (range.last < range.first)
      throw std::invalid_argument("--blocks: range '" + std::string(part) + "' ends before it starts" + form);
    ranges.push_back(range);
    if (ranges.size() > kMaxBlockRanges)
      throw std::invalid_argument("--blocks has more than " + std::to_string(kMaxBlockRanges) + " parts" + form);
  }
  return ranges;
}

LaunchFilter::LaunchFilter(LaunchFilterSpec spec) : spec_(std::move(spec)) {
  if (!spec_.kernel_regex.empty()) {
    try {
      regex_.emplace(spec_.kernel_regex, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
      throw std::invalid_argument("--kernel: '" + spec_.kernel_regex + "' is not a valid regular expression (" +
                                  e.what() + ")");
    }
  }
  if (spec_.blocks.size() > kMaxBlockRanges)
    throw std::invalid_argument("at most " + std::to_string(kMaxBlockRanges) + " block ranges");
}

bool LaunchFilter::may_capture(std::string_view mangled, std::string_view demangled) const {
  if (exhausted()) return false;
  if (!regex_) return true;
  const std::string name = kernel_name_in_base(spec_.name_base, mangled, demangled);
  return std::regex_search(name.begin(), name.end(), *regex_);
}

bool LaunchFilter::should_capture(std::string_view mangled, std::string_view demangled) {
  if (regex_) {
    const std::string name = kernel_name_in_base(spec_.name_base, mangled, demangled);
    if (!std::regex_search(name.begin(), name.end(), *regex_)) return false;
  }
  const std::uint64_t index = matched_++;
  if (index < spec_.skip || exhausted()) return false;
  ++captured_;
  return true;
}

}  // namespace bankcheck::capture
