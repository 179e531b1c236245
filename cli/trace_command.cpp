// bankcheck trace ALGO [name=value ...] [--input random|worst|FILE] [--seed S] -o FILE [--format text|bin]
//   [--address-bytes 8|4]
#include <iostream>

#include "cli/algorithm_args.hpp"
#include "cli/commands.hpp"
#include "sim/trace/trace_file.hpp"

namespace bankcheck::cli {

void add_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("trace", "write an algorithm's shared-memory trace (docs/trace-format.md)");
  auto args = std::make_shared<AlgorithmArgs>();
  auto output = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>();
  auto address_bytes = std::make_shared<unsigned>(8);
  args->add_to(*cmd);
  cmd->add_option("-o,--output", *output, "trace file ('-' for stdout)")->required();
  cmd->add_option("--format", *format, "text or bin (default: from the extension, else text)");
  cmd->add_option("--address-bytes", *address_bytes, "bytes per address in a binary trace: 8 (default) or 4")
      ->check(CLI::IsMember({4u, 8u}));
  cmd->callback([args, output, format, address_bytes] {
    TraceFormat f = TraceFormat::text;
    if (!format->empty()) f = parse_format_name(*format);
    else if (auto ext = format_from_extension(*output)) f = *ext;
    auto sink = create_trace(*output, f, *address_bytes);
    const AlgorithmOutcome outcome = trace_algorithm(args->algorithm, args->parsed(), args->input_choice(), *sink);
    if (outcome.output_checked && !outcome.output_ok) {
      std::cerr << "bankcheck trace: warning: " << outcome.wrong << " wrong outputs (" << outcome.check
                << "); first: " << outcome.first_wrong << "\n";
      exit_code() = kClaimFails;
    }
  });
}

}  // namespace bankcheck::cli
