// Runs a child process with its output in a log file.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lockstep::cli {

struct ProcessResult {
  int status = 0;     // exit code, or -signal
  std::string error;  // the process could not be started
};

// run_process runs argv[0] (a path) with `env` added to this environment,
// stdout and stderr to `log_path`, and waits for it. The child leads a
// process group of its own and dies with this process.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& env,
                          const std::string& log_path);

// cancel_children_on_signals makes SIGINT and SIGTERM kill every child's
// process group and start no more (run_process then fails at once);
// cancel_signal is the signal that came, or 0.
void cancel_children_on_signals();
int cancel_signal();

// command_line is `vars` and `argv` as one line a shell runs the same way
// (reproducer lines are pasted into shells): words quoted where needed.
std::string command_line(const std::vector<std::pair<std::string, std::string>>& vars,
                         const std::vector<std::string>& argv);

// find_program looks `name` up in PATH, as a shell would; "" when absent.
std::string find_program(const std::string& name);

}  // namespace lockstep::cli
