#pragma once
// Numeric options as the CLI conventions want them (docs/cli.md): decimal
// only, range-checked, the allowed range in the message, never wrapped (CLI11
// alone turns "--seed -1" into 2^64 - 1) and never silently replaced by a
// default. A bad value is a CLI::ValidationError: exit 2.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

namespace bankcheck::cli {

/// The value of `text` as an integer in [lo, hi].
/// @throws CLI::ValidationError "NAME: must be an integer in LO..HI (got TEXT)".
template <class T>
T parse_integer(const std::string& name, const std::string& text, T lo, T hi) {
  static_assert(std::is_integral_v<T>);
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || ec != std::errc() || ptr != end || value < lo || value > hi)
    throw CLI::ValidationError(name, "must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                                         " (got " + text + ")");
  return value;
}

/// The value of `text` as a finite decimal number in [lo, hi].
inline double parse_real(const std::string& name, const std::string& text, double lo, double hi) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value < lo || value > hi)
    throw CLI::ValidationError(name, "must be a number in " + std::to_string(lo) + ".." + std::to_string(hi) +
                                         " (got " + text + ")");
  return value;
}

/// An option holding an integer in [lo, hi], parsed as above into `target`.
template <class T>
CLI::Option* add_integer_option(CLI::App& cmd, const std::string& flags, T& target, T lo, T hi, std::string help) {
  const std::string name = flags.substr(0, flags.find(','));
  help += " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")";
  return cmd.add_option_function<std::string>(
      flags, [&target, name, lo, hi](const std::string& text) { target = parse_integer<T>(name, text, lo, hi); },
      help);
}

/// An option holding a number in [lo, hi].
inline CLI::Option* add_real_option(CLI::App& cmd, const std::string& flags, double& target, double lo, double hi,
                                    std::string help) {
  const std::string name = flags.substr(0, flags.find(','));
  return cmd.add_option_function<std::string>(
      flags, [&target, name, lo, hi](const std::string& text) { target = parse_real(name, text, lo, hi); },
      std::move(help));
}

}  // namespace bankcheck::cli
