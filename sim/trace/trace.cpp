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
}

TraceRecord TraceBuffer::at(std::size_t i) const {
  TraceRecord r;
  r.site = site_ids_.at(i);
  r.request.op = ops_[i];
  r.request.width = widths_[i];
  r.request.addr = std::span<const std::uint64_t>(addrs_.data() + i * warp_, warp_);
  return r;
}

bool BufferSource::next(TraceRecord& out) {
  if (index_ >= buffer_.size()) return false;
  out = buffer_.at(index_++);
  return true;
}

}  // namespace bankcheck
