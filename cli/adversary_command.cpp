// Placeholder until the command is written (see the issue that owns it).
#include "cli/commands.hpp"

namespace bankcheck::cli {
void add_adversary_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("adversary", "(not yet available)");
  cmd->allow_extras();
  cmd->callback([] { throw std::invalid_argument("'adversary' is not available in this build yet"); });
}
}  // namespace bankcheck::cli
