#pragma once
// Running another program: the captured program (its exit status passed on
// the way a shell does: the code, or 128 + the signal), and the
// disassembler whose output becomes sass.csv.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bankcheck::capture {

/// How a program ended.
struct ProgramStatus {
  bool started = false;  ///< false: it could not be run (see error)
  int exit_code = 0;     ///< the program's code, 128 + signal when killed, 127/126 when it could not be run
  int signal = 0;        ///< the signal that ended it, 0 if it exited
  std::string error;     ///< why it could not be run ("not found", ...)
  int interrupted = 0;   ///< SIGINT or SIGTERM that this process received while it ran and passed on to it, else 0
};

/// Exit code of a program that was not found / could not be executed (as a shell reports them).
inline constexpr int kExitNotFound = 127;
inline constexpr int kExitNotExecutable = 126;

/// Run argv (argv[0] searched on PATH when it has no '/') with `environment`
/// added to (or replacing in) this process's environment, and wait for it.
/// A SIGINT or SIGTERM this process receives meanwhile is passed on to the
/// program (and recorded in `interrupted`) instead of ending this process,
/// so that the caller can still put away what the program left.
/// @pre argv is not empty.
ProgramStatus run_program(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment);

/// Run argv and return its standard output, or nullopt when it cannot be
/// run or exits non-zero (its standard error goes to ours).
/// Safe to call from several threads at once.
std::optional<std::string> program_output(const std::vector<std::string>& argv);

/// The first of `names` found as an executable on PATH or in `extra_dirs`; empty if none.
std::string find_executable(const std::vector<std::string>& names, const std::vector<std::string>& extra_dirs);

}  // namespace bankcheck::capture
