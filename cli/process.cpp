#include "process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

extern char** environ;

namespace lockstep::cli {
namespace {

// The children running now, by process group, for the signal handler.
constexpr int kMaxChildren = 256;
std::atomic<pid_t> g_children[kMaxChildren];
std::atomic<int> g_cancel_signal{0};

int track_child(pid_t pid) {
  for (int i = 0; i < kMaxChildren; ++i) {
    pid_t expected = 0;
    if (g_children[i].compare_exchange_strong(expected, pid)) {
      // A signal that came between the fork and here found no slot.
      if (g_cancel_signal.load() != 0) kill(-pid, SIGKILL);
      return i;
    }
  }
  return -1;
}

void untrack_child(int slot) {
  if (slot >= 0) g_children[slot].store(0);
}

// SIGINT, SIGTERM: every child's group is killed; the run then finishes
// its reports, saying it was cancelled (cmd_run).
void on_cancel(int sig) {
  g_cancel_signal.store(sig);
  for (std::atomic<pid_t>& c : g_children)
    if (const pid_t pid = c.load(); pid > 0) kill(-pid, SIGKILL);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& env,
                          const std::string& log_path) {
  ProcessResult r;
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  // This environment, with `env` replacing or adding variables.
  std::vector<std::string> vars;
  for (char** e = environ; *e; ++e) {
    const std::string v = *e;
    bool replaced = false;
    for (const auto& [k, val] : env) replaced |= v.starts_with(k + "=");
    if (!replaced) vars.push_back(v);
  }
  for (const auto& [k, val] : env) vars.push_back(k + "=" + val);
  std::vector<char*> cenv;
  for (std::string& v : vars) cenv.push_back(v.data());
  cenv.push_back(nullptr);

  // Each child leads a process group of its own (an emulator's, a death
  // test's children with it) and dies with this process (PDEATHSIG): a
  // cancelled or killed run leaves nothing running. Between fork and exec
  // only async-signal-safe calls: this process has threads.
  if (cancel_signal() != 0) {
    r.error = "not started: the run was cancelled";
    r.status = 127;
    return r;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(1, 2) < 0) _exit(127);
    execve(cargv[0], cargv.data(), cenv.data());
    const char msg[] = "lockstep: cannot execute the program\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  if (pid < 0) {
    r.error = "cannot run " + argv[0] + ": " + std::strerror(errno);
    r.status = 127;
    return r;
  }
  setpgid(pid, pid);  // as the child does: whichever runs first
  const int slot = track_child(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  untrack_child(slot);
  r.status = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && access(cargv[0], X_OK) != 0)
    r.error = "cannot run " + argv[0] + ": " + std::strerror(errno);
  return r;
}

int cancel_signal() { return g_cancel_signal.load(std::memory_order_relaxed); }

void cancel_children_on_signals() {
  struct sigaction sa = {};
  sa.sa_handler = on_cancel;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

namespace {

// A shell word for `s`, quoted only where it must be.
std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                        "_-./=,+:@%") == std::string::npos)
    return s;
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string command_line(const std::vector<std::pair<std::string, std::string>>& vars,
                         const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& [k, v] : vars) out += k + "=" + shell_quote(v) + " ";
  for (const std::string& a : argv) out += shell_quote(a) + " ";
  if (!out.empty()) out.pop_back();
  return out;
}

}  // namespace lockstep::cli
