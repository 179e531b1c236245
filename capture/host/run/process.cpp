#include "capture/host/run/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

extern char** environ;

namespace bankcheck::capture {

namespace {

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

ProgramStatus wait_for(pid_t pid) {
  ProgramStatus status;
  status.started = true;
  int raw = 0;
  while (::waitpid(pid, &raw, 0) < 0) {
    if (errno != EINTR) {
      status.error = std::string("waitpid: ") + std::strerror(errno);
      status.exit_code = kExitNotExecutable;
      return status;
    }
  }
  if (WIFEXITED(raw)) {
    status.exit_code = WEXITSTATUS(raw);
  } else if (WIFSIGNALED(raw)) {
    status.signal = WTERMSIG(raw);
    status.exit_code = 128 + status.signal;
  }
  return status;
}

// The program being waited for, and the stop request passed on to it (only
// async-signal-safe work in the handler: kill and stores to sig_atomic_t).
volatile sig_atomic_t running_child = 0;
volatile sig_atomic_t received_stop = 0;

extern "C" void pass_on_stop(int signal) {
  received_stop = signal;
  if (running_child > 0) ::kill(static_cast<pid_t>(running_child), signal);
}

/// While alive, SIGINT and SIGTERM are recorded and, once a child is
/// attached, passed on to it; the previous handlers come back after.
class StopForwarding {
 public:
  StopForwarding() {
    received_stop = 0;
    running_child = 0;
    struct sigaction pass{};
    pass.sa_handler = pass_on_stop;
    sigemptyset(&pass.sa_mask);
    ::sigaction(SIGINT, &pass, &old_int_);
    ::sigaction(SIGTERM, &pass, &old_term_);
  }
  /// Pass stops on to `child` from now on, and one that came before it started.
  void attach(pid_t child) {
    running_child = child;
    if (received_stop != 0) ::kill(child, received_stop);
  }
  ~StopForwarding() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
    running_child = 0;
  }
  StopForwarding(const StopForwarding&) = delete;
  StopForwarding& operator=(const StopForwarding&) = delete;

 private:
  struct sigaction old_int_{}, old_term_{};
};

}  // namespace

ProgramStatus run_program(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) env[std::string(*e, static_cast<std::size_t>(eq - *e))] = eq + 1;
  }
  for (const auto& [key, value] : environment) env[key] = value;
  std::vector<std::string> env_strings, args(argv);
  for (const auto& [key, value] : env) env_strings.push_back(key + "=" + value);
  auto envp = c_strings(env_strings);
  auto argp = c_strings(args);
  pid_t pid = 0;
  StopForwarding forwarding;  // from before the program starts: a stop never ends this process instead
  const int rc = ::posix_spawnp(&pid, args[0].c_str(), nullptr, nullptr, argp.data(), envp.data());
  if (rc != 0) {
    ProgramStatus status;
    status.exit_code = rc == ENOENT ? kExitNotFound : kExitNotExecutable;
    status.error = rc == ENOENT ? "not found" : std::strerror(rc);
    return status;
  }
  forwarding.attach(pid);
  ProgramStatus status = wait_for(pid);
  status.interrupted = received_stop;
  return status;
}

std::optional<std::string> program_output(const std::vector<std::string>& argv) {
  int fds[2];
  // Close-on-exec: another thread's child must not hold this pipe open (capture disassembles in parallel).
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> args(argv);
  auto argp = c_strings(args);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, argp.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return std::nullopt;
  }
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(fds[0]);
  const ProgramStatus status = wait_for(pid);
  if (status.exit_code != 0) return std::nullopt;
  return out;
}

std::string find_executable(const std::vector<std::string>& names, const std::vector<std::string>& extra_dirs) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    for (std::size_t from = 0;;) {
      const std::size_t colon = p.find(':', from);
      dirs.push_back(p.substr(from, colon == std::string::npos ? std::string::npos : colon - from));
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
  }
  dirs.insert(dirs.end(), extra_dirs.begin(), extra_dirs.end());
  for (const auto& name : names)
    for (const auto& dir : dirs) {
      if (dir.empty()) continue;
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  return "";
}

}  // namespace bankcheck::capture
