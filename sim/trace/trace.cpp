#include "sim/trace/trace.hpp"

#include <stdexcept>
#include <string>

namespace bankcheck {

void check_writable(const WarpRequest& request, unsigned warp) {
  if (request.addr.size() != warp)
    throw std::invalid_argument("request has " + std::to_string(request.addr.size()) + " lanes, trace warp is " +
                                std::to_string(warp));
  if (!is_valid_access(request.op, request.width))
    throw std::invalid_argument("width " + std::to_string(request.width) + " is not one of " +
                                std::string(allowed_widths_text(request.op)) + " (op " +
                                std::string(op_name(request.op)) + ")");
  if (const std::string p = source_problem(request); !p.empty()) throw std::invalid_argument(p);
}

std::string source_problem(const WarpRequest& request) {
  if (request.source.empty()) return "";
  if (!has_source(request.op))
    return "op " + std::string(op_name(request.op)) + " has no source addresses (only cpasync and cpasync.cg)";
  if (request.source.size() != request.addr.size())
    return "wrong source count: expected " + std::to_string(request.addr.size()) + " (one per lane), got " +
           std::to_string(request.source.size());
  for (std::size_t l = 0; l < request.addr.size(); ++l) {
    const bool idle = request.addr[l] == kInactive;
    if (idle != (request.source[l] == kInactive))
      return "lane " + std::to_string(l) + (idle ? " is idle but has a source address" : " has no source address");
    if (!idle && request.source[l] != kZeroFill && request.source[l] % request.width != 0)
      return "misaligned source address " + std::to_string(request.source[l]) + " of lane " + std::to_string(l) +
             ": not a multiple of " + std::to_string(request.width) + " (width " + std::to_string(request.width) + ")";
  }
  return "";
}

std::uint32_t SiteTable::intern(std::string_view name) {
  if (auto it = ids_.find(std::string(name)); it != ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  return id;
}

void TraceBuffer::record(std::string_view site, const WarpRequest& request) {
  if (request.addr.size() != warp_)
    throw std::invalid_argument("TraceBuffer::record: request has " + std::to_string(request.addr.size()) +
                                " lanes, trace warp is " + std::to_string(warp_));
  site_ids_.push_back(sites_.intern(site));
  ops_.push_back(request.op);
  widths_.push_back(static_cast<std::uint8_t>(request.width));
  addrs_.insert(addrs_.end(), request.addr.begin(), request.addr.end());
  source_index_.push_back(request.source.empty() ? kNoSource : sources_.size());
  sources_.insert(sources_.end(), request.source.begin(), request.source.end());
}

TraceRecord TraceBuffer::at(std::size_t i) const {
  TraceRecord r;
  r.site = site_ids_.at(i);
  r.request.op = ops_[i];
  r.request.width = widths_[i];
  r.request.addr = std::span<const std::uint64_t>(addrs_.data() + i * warp_, warp_);
  if (source_index_[i] != kNoSource)
    r.request.source = std::span<const std::uint64_t>(sources_.data() + source_index_[i], warp_);
  return r;
}

bool BufferSource::next(TraceRecord& out) {
  if (index_ >= buffer_.size()) return false;
  out = buffer_.at(index_++);
  return true;
}

}  // namespace bankcheck
