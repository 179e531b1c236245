#include "sim/layout/access_kind.hpp"

#include <stdexcept>

namespace bankcheck::layout {
namespace {

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw std::invalid_argument("access '" + std::string(text) + "': " + why + "; expected one of " +
                              std::string(kAccessKindNames));
}

bool take(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

}  // namespace

Op AccessKind::op() const {
  switch (family) {
    case Family::load: return Op::load;
    case Family::store: return Op::store;
    case Family::ldmatrix: return Op::ldsm;
    case Family::stmatrix: return Op::stsm;
    case Family::cpasync_ca: return Op::cpasync;
    case Family::cpasync_cg: return Op::cpasync_cg;
  }
  return Op::load;
}

std::string AccessKind::name() const {
  switch (family) {
    case Family::load: return "ld." + std::to_string(bytes * 8);
    case Family::store: return "st." + std::to_string(bytes * 8);
    case Family::ldmatrix:
    case Family::stmatrix:
      return std::string(family == Family::ldmatrix ? "ldmatrix" : "stmatrix") + ".x" + std::to_string(matrices) +
             (trans ? ".trans" : "");
    case Family::cpasync_ca: return "cp.async.ca." + std::to_string(bytes);
    case Family::cpasync_cg: return "cp.async.cg." + std::to_string(bytes);
  }
  return "";
}

AccessKind parse_access_kind(std::string_view text) {
  std::string_view s = text;
  AccessKind k;
  if (take(s, "ldmatrix.") || take(s, "stmatrix.")) {
    k.family = text[0] == 'l' ? AccessKind::Family::ldmatrix : AccessKind::Family::stmatrix;
    k.bytes = 16;
    if (s == "x1" || s == "x1.trans") k.matrices = 1;
    else if (s == "x2" || s == "x2.trans") k.matrices = 2;
    else if (s == "x4" || s == "x4.trans") k.matrices = 4;
    else bad(text, "a matrix access takes .x1, .x2 or .x4, then optionally .trans");
    k.trans = s.size() > 2;
    return k;
  }
  if (take(s, "cp.async.")) {
    k.family = AccessKind::Family::cpasync_ca;
    if (take(s, "cg.")) k.family = AccessKind::Family::cpasync_cg;
    else (void)take(s, "ca.");
    if (s == "4") k.bytes = 4;
    else if (s == "8") k.bytes = 8;
    else if (s == "16") k.bytes = 16;
    else bad(text, "cp.async copies 4, 8 or 16 bytes");
    if (k.family == AccessKind::Family::cpasync_cg && k.bytes != 16) bad(text, "cp.async.cg copies 16 bytes only");
    return k;
  }
  if (take(s, "ld.") || take(s, "st.")) {
    k.family = text[0] == 'l' ? AccessKind::Family::load : AccessKind::Family::store;
    if (s == "8") k.bytes = 1;
    else if (s == "16") k.bytes = 2;
    else if (s == "32") k.bytes = 4;
    else if (s == "64") k.bytes = 8;
    else if (s == "128") k.bytes = 16;
    else bad(text, "ld and st take 8, 16, 32, 64 or 128 bits per lane");
    return k;
  }
  bad(text, "unknown access");
}

}  // namespace bankcheck::layout
