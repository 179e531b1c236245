// Placeholder until the command is written (see the issue that owns it).
#include "cli/commands.hpp"

namespace bankcheck::cli {
void add_verify_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("verify", "(not yet available)");
  cmd->allow_extras();
  cmd->callback([] { throw std::invalid_argument("'verify' is not available in this build yet"); });
}
}  // namespace bankcheck::cli
