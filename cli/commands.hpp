#pragma once
// Each subcommand of `bankcheck` lives in cli/<name>_command.cpp and
// registers itself on the CLI11 app. A command's callback parses nothing
// by hand: CLI11 parses, the library computes, the command prints.
#include <CLI/CLI.hpp>

namespace bankcheck::cli {

/// Exit codes shared by every command.
enum Exit : int { kOk = 0, kClaimFails = 1, kBadInput = 2, kUndecided = 3 };

void add_replay_command(CLI::App& app);     // replay a trace
void add_convert_command(CLI::App& app);    // text <-> binary traces
void add_run_command(CLI::App& app);        // run an algorithm, analytic vs replayed
void add_trace_command(CLI::App& app);      // write an algorithm's trace
void add_draw_command(CLI::App& app);       // bank-grid pictures
void add_verify_command(CLI::App& app);     // the claims checker
void add_adversary_command(CLI::App& app);  // worst-case inputs
void add_capture_command(CLI::App& app);    // traces of unmodified CUDA programs
void add_compare_command(CLI::App& app);    // model against Nsight Compute, per instruction
void add_layout_command(CLI::App& app);     // CuTe shared layouts and swizzles
void add_report_command(CLI::App& app);     // one HTML page of a capture, trace or results
void add_suggest_command(CLI::App& app);    // a layout per buffer of a capture (docs/capture.md)

/// Set by a command's callback; main returns it.
int& exit_code();

}  // namespace bankcheck::cli
