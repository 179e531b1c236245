#pragma once
// The options every command shares, defined once so they mean the same thing
// everywhere (docs/cli.md, "CLI conventions"): --model/--banks/--bank-bytes,
// --warp, --threads, --seed, --json/--csv/-o/--quiet, --fail-on-conflicts and
// --site. Every number is decimal, range-checked, and an error names the
// option and its allowed range; nothing wraps, nothing falls back to a default.
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/bank_model.hpp"
#include "sim/report/results_writer.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {

/// A decimal integer in lo..hi, else std::invalid_argument stating the range:
/// "--seed: must be an integer in 0..18446744073709551615 (got -1)".
template <class T>
T parse_integer(std::string_view text, std::string_view what, T lo, T hi) {
  static_assert(std::is_integral_v<T>);
  T value{};
  bool ok = !text.empty() && (text[0] != '-' || std::is_signed_v<T>) && text[0] != '+';
  if (ok) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
    ok = ec == std::errc() && end == text.data() + text.size();
  }
  if (!ok || value < lo || value > hi)
    throw std::invalid_argument(std::string(what) + ": must be an integer in " + std::to_string(lo) + ".." +
                                std::to_string(hi) + " (got " + std::string(text) + ")");
  return value;
}

/// The long name of an option list such as "-o,--output" ("--output").
inline std::string option_label(const std::string& names) {
  std::string best;
  std::size_t start = 0;
  while (start <= names.size()) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    const std::string name = names.substr(start, comma - start);
    if (best.empty() || (name.rfind("--", 0) == 0 && best.rfind("--", 0) != 0)) best = name;
    start = comma + 1;
  }
  return best;
}

/// An integer option parsed by parse_integer; the help shows the range.
template <class T>
CLI::Option* add_integer_option(CLI::App& cmd, const std::string& names, T& target, T lo, T hi, std::string help) {
  const std::string label = option_label(names);
  auto* opt = cmd.add_option_function<std::string>(
      names, [&target, label, lo, hi](const std::string& text) { target = parse_integer(text, label, lo, hi); },
      help + " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return opt->type_name("INT");
}
template <class T>
CLI::Option* add_integer_option(CLI::App& cmd, const std::string& names, std::optional<T>& target, T lo, T hi,
                                std::string help) {
  const std::string label = option_label(names);
  auto* opt = cmd.add_option_function<std::string>(
      names, [&target, label, lo, hi](const std::string& text) { target = parse_integer(text, label, lo, hi); },
      help + " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return opt->type_name("INT");
}

/// A finite decimal number in lo..hi, else std::invalid_argument stating the range.
inline double parse_real(std::string_view text, std::string_view what, double lo, double hi) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::general);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) || value < lo || value > hi)
    throw std::invalid_argument(std::string(what) + ": must be a number in " + std::to_string(lo) + ".." +
                                std::to_string(hi) + " (got " + std::string(text) + ")");
  return value;
}

/// A number option parsed by parse_real.
inline CLI::Option* add_real_option(CLI::App& cmd, const std::string& names, double& target, double lo, double hi,
                                    std::string help) {
  const std::string label = option_label(names);
  auto* opt = cmd.add_option_function<std::string>(
      names, [&target, label, lo, hi](const std::string& text) { target = parse_real(text, label, lo, hi); },
      std::move(help));
  return opt->type_name("NUMBER");
}

inline constexpr unsigned kMaxWarp = kMaxTraceWarp;  // 65536
inline constexpr unsigned kMaxThreads = 1024;

/// --warp N: lanes per warp, 1..65536 (sm90 and kepler require 32).
inline CLI::Option* add_warp_option(CLI::App& cmd, std::optional<unsigned>& warp, const std::string& what) {
  return add_integer_option<unsigned>(cmd, "--warp", warp, 1, kMaxWarp,
                                      "lanes per warp" + what + "; sm90 and kepler presets require 32");
}

/// --seed N: 0..2^64-1, decimal.
inline CLI::Option* add_seed_option(CLI::App& cmd, std::uint64_t& seed) {
  return add_integer_option<std::uint64_t>(cmd, "--seed", seed, 0, std::numeric_limits<std::uint64_t>::max(),
                                           "random seed, default 1");
}

/// Worker threads of bankcheck itself: all cores unless --threads says otherwise.
inline unsigned default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : std::min(n, kMaxThreads);
}
inline CLI::Option* add_threads_option(CLI::App& cmd, unsigned& threads) {
  threads = default_threads();
  return add_integer_option<unsigned>(cmd, "--threads", threads, 1, kMaxThreads,
                                      "worker threads of bankcheck itself (not an algorithm's block size); "
                                      "default: all cores");
}

/// --model PRESET, or a custom geometry with --banks N --bank-bytes B.
struct ModelOptions {
  std::string preset = "sm90";
  std::optional<unsigned> banks, bank_bytes;
  CLI::Option* preset_option = nullptr;

  static std::string help() {
    std::string names;
    for (auto n : preset_names()) names += (names.empty() ? "" : ", ") + std::string(n);
    return "bank model preset: " + names +
           ". Default sm90, the measured H100 (what a kernel runs on); dmm is the papers' machine "
           "(w banks of one element each, any warp size); sm90 and kepler need 32-lane warps";
  }

  void add_to(CLI::App& cmd, bool custom = true) {
    preset_option = cmd.add_option("--model", preset, help())->type_name("PRESET");
    if (!custom) return;
    add_integer_option<unsigned>(cmd, "--banks", banks, 1, kMaxWarp,
                                 "banks: a custom model (with --bank-bytes), or the dmm preset's bank count");
    add_integer_option<unsigned>(cmd, "--bank-bytes", bank_bytes, 1, 16,
                                 "bytes per bank word of a custom model: 1, 2, 4, 8 or 16");
  }
  bool preset_given() const { return preset_option != nullptr && preset_option->count() > 0; }
  bool custom() const { return bank_bytes.has_value() || (banks.has_value() && !preset_given()); }

  /// The checks that need no input, so a bad flag is reported before any file is read.
  /// @throws std::invalid_argument naming the allowed values.
  void check() const {
    const auto names = preset_names();
    if (std::find(names.begin(), names.end(), preset) == names.end()) (void)make_preset(preset);  // throws, listing them
    if (bank_bytes && !is_valid_width(*bank_bytes))
      throw std::invalid_argument("--bank-bytes: must be one of 1, 2, 4, 8, 16 (got " + std::to_string(*bank_bytes) +
                                  ")");
    if (preset_given() && bank_bytes)
      throw std::invalid_argument("--bank-bytes describes a custom model; it cannot be combined with --model");
    if (preset_given() && banks && preset != "dmm")
      throw std::invalid_argument("--banks applies to --model dmm or a custom model, not to the preset '" + preset + "'");
    if (bank_bytes && !banks) throw std::invalid_argument("a custom model needs --banks with --bank-bytes");
  }
  /// The model for `warp` lanes. @throws std::invalid_argument (e.g. sm90 with warp != 32).
  BankModel make(unsigned warp) const {
    check();
    if (custom()) return make_custom(*banks, bank_bytes.value_or(4), warp);
    return make_preset(preset, warp, banks.value_or(0));
  }
};

/// --json / --csv (stdout), -o FILE (the same bytes, written atomically), --quiet.
struct OutputOptions {
  bool json = false, csv = false, quiet = false;
  std::string file;

  void add_to(CLI::App& cmd) {
    auto* j = cmd.add_flag("--json", json, "print the result as JSON (docs/results-schema.md)");
    auto* c = cmd.add_flag("--csv", csv, "print the result as CSV (docs/results-schema.md)");
    j->excludes(c);
    cmd.add_option("-o,--output", file, "write the result to FILE instead of stdout (atomically), in the format "
                                        "stdout would have had")
        ->type_name("FILE");
    add_quiet(cmd);
  }
  void add_quiet(CLI::App& cmd) { cmd.add_flag("--quiet", quiet, "no progress on stderr"); }
  report::Format format() const { return json ? report::Format::json : csv ? report::Format::csv : report::Format::text; }
  /// Where progress goes: stderr when it is a terminal and --quiet is not given, else nowhere.
  std::ostream* progress_stream() const { return !quiet && ::isatty(STDERR_FILENO) ? &std::cerr : nullptr; }
  /// How long work runs before progress shows: 2 s, or BANKCHECK_PROGRESS_AFTER_MS (for tests).
  static std::chrono::milliseconds progress_delay() {
    const char* env = std::getenv("BANKCHECK_PROGRESS_AFTER_MS");
    if (env == nullptr) return std::chrono::seconds(2);
    return std::chrono::milliseconds(parse_integer<std::uint32_t>(env, "BANKCHECK_PROGRESS_AFTER_MS", 0, 3600000));
  }
};

/// --fail-on-conflicts[=N] and --site NAME: the CI gate and what it looks at.
struct GateOptions {
  std::optional<std::uint64_t> fail_on_conflicts;
  std::vector<std::string> sites;

  void add_to(CLI::App& cmd) {
    auto text = std::make_shared<std::string>();
    cmd.add_flag("--fail-on-conflicts", *text,
                 "exit 1 when the conflicts (of the --site sites, if given) exceed N (default 0), or when "
                 "instructions are left unmodelled: for CI, as a compiler's -Werror")
        ->type_name("[=N]")
        ->each([this, text](const std::string& value) {
          // A bare flag reaches here as CLI11's "true": the threshold 0.
          fail_on_conflicts = value == "true" ? 0
                                              : parse_integer<std::uint64_t>(value, "--fail-on-conflicts", 0,
                                                                             std::numeric_limits<std::uint64_t>::max());
        });
    cmd.add_option("--site", sites, "report (and gate) only this site; repeatable. A site without instructions "
                                    "is reported as 'no accesses', never as conflict-free. In a capture, FILE:LINE "
                                    "names the instructions of that source line (sass.csv's line info)")
        ->type_name("NAME")
        ->allow_extra_args(false);  // one name per --site: a trace file after it stays a positional
  }
};

}  // namespace bankcheck::cli
