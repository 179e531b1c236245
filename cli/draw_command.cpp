// Placeholder until the command is written (see the issue that owns it).
#include "cli/commands.hpp"

namespace bankcheck::cli {
void add_draw_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("draw", "(not yet available)");
  cmd->allow_extras();
  cmd->callback([] { throw std::invalid_argument("'draw' is not available in this build yet"); });
}
}  // namespace bankcheck::cli
