// Placeholder until the command is written (see the issue that owns it).
#include "cli/commands.hpp"

namespace bankcheck::cli {
void add_replay_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "(not yet available)");
  cmd->allow_extras();
  cmd->callback([] { throw std::invalid_argument("'replay' is not available in this build yet"); });
}
}  // namespace bankcheck::cli
