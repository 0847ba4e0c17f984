#include "process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

extern char** environ;

namespace lockstep::cli {

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

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  const int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    r.status = 127;
    return r;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
  return r;
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
