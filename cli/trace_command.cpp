// bankcheck trace ALGO [name=value ...] [--input random|worst|FILE] [--seed S] -o FILE [--format text|bin]
//   [--address-bytes 8|4]: write an algorithm's trace. FILE appears whole, or
// not at all when the run fails.
#include <iostream>
#include <memory>

#include "cli/algorithm_args.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "sim/report/progress.hpp"
#include "sim/report/result_output.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {
namespace {

struct TraceOptions {
  AlgorithmArgs args;
  std::string output, format;
  unsigned address_bytes = 8;
  OutputOptions progress;  // --quiet only
};

void write_trace(const TraceOptions& o) {
  TraceFormat f = TraceFormat::text;
  if (!o.format.empty()) f = parse_format_name(o.format);
  else if (auto ext = format_from_extension(o.output)) f = *ext;
  report::refuse_overwriting_inputs(o.output, {o.args.input});
  const AlgorithmSpec& spec = find_algorithm(o.args.algorithm);
  const Params p = resolve_params(spec, o.args.parsed());  // before the file is created
  auto sink = create_trace(o.output, f, o.address_bytes);
  report::Progress progress(o.progress.progress_stream(), "trace " + spec.name, OutputOptions::progress_delay());
  report::ProgressSink ticks(progress, sink.get());
  const AlgorithmOutcome outcome = trace_algorithm(spec.name, p, o.args.input_choice(), ticks);
  if (outcome.output_checked && !outcome.output_ok) {
    std::cerr << "bankcheck trace: warning: " << outcome.wrong << " wrong outputs (" << outcome.check
              << "); first: " << outcome.first_wrong << "\n";
    exit_code() = kClaimFails;
  }
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("trace", "write an algorithm's shared-memory trace (docs/trace-format.md)");
  auto o = std::make_shared<TraceOptions>();
  o->args.add_to(*cmd);
  cmd->add_option("-o,--output", o->output, "trace file, written atomically ('-' for stdout)")->required();
  cmd->add_option("--format", o->format, "text or bin (default: from the extension, else text)");
  add_integer_option<unsigned>(*cmd, "--address-bytes", o->address_bytes, 4, 8,
                               "bytes per address in a binary trace: 8 (default) or 4");
  o->progress.add_quiet(*cmd);
  cmd->callback([o] {
    if (o->address_bytes != 4 && o->address_bytes != 8)
      throw std::invalid_argument("--address-bytes: must be 4 or 8 (got " + std::to_string(o->address_bytes) + ")");
    write_trace(*o);
  });
}

}  // namespace bankcheck::cli
