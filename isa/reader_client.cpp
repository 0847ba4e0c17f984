#include "isa/reader_client.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "isa/scan_json.h"

extern char** environ;

namespace lockstep::isa {
namespace {

// Where an entry is: its file, and the load bias that turns its run-time
// address into the ELF virtual address (0 for a non-PIE executable).
struct Place {
  std::string file;
  std::uintptr_t bias = 0;
};

std::optional<Place> place_of(const void* entry) {
  Dl_info info;
  link_map* map = nullptr;
  if (dladdr1(entry, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0 || map == nullptr)
    return std::nullopt;
  Place p{map->l_name ? map->l_name : "", map->l_addr};
  // The executable's link map has no name; /proc/self/exe is the guest's
  // binary under qemu-user too.
  if (p.file.empty()) {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return std::nullopt;
    p.file.assign(buf, static_cast<size_t>(n));
  }
  return p;
}

// Runs `argv` and returns its standard output, or nullopt with `why`.
std::optional<std::string> run(const std::vector<std::string>& argv, std::string* why) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return *why = std::string("pipe: ") + std::strerror(errno), std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    *why = fmt::format("cannot run {}: {}", argv[0], std::strerror(err));
    return std::nullopt;
  }
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *why = fmt::format("{} failed (wait status {:#x})", argv[0], status);
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<Scan> scan_with_reader(std::span<const void* const> entries, std::string* why) {
  const char* reader = std::getenv("LOCKSTEP_ISA_READER");
  if (reader == nullptr || *reader == '\0') {
    *why = "LOCKSTEP_ISA_READER is not set: it names the host's isa/arm64_reader (the default build's), which "
           "reads this build's AArch64 code";
    return std::nullopt;
  }
  if (access(reader, X_OK) != 0) {
    *why = fmt::format("LOCKSTEP_ISA_READER names {}, which is not there: build arm64_reader in the default build "
                       "(it needs Debian libcapstone-dev)", reader);
    return std::nullopt;
  }
  // One reader run per file: a backend's entries lie in one object.
  std::map<std::string, std::pair<std::uintptr_t, std::vector<std::string>>> files;
  Scan out;
  for (const void* e : entries) {
    const auto p = place_of(e);
    if (!p) {
      out.problems.push_back(fmt::format("no loaded object covers the entry at {}", e));
      continue;
    }
    auto& [bias, args] = files[p->file];
    bias = p->bias;
    args.push_back(fmt::format("{:#x}", reinterpret_cast<std::uintptr_t>(e) - p->bias));
  }
  for (const auto& [file, what] : files) {
    std::vector<std::string> argv = {reader, file};
    argv.insert(argv.end(), what.second.begin(), what.second.end());
    const std::optional<std::string> json = run(argv, why);
    if (!json) return std::nullopt;
    Scan s;
    try {
      s = scan_from_json(nlohmann::json::parse(*json));
    } catch (const nlohmann::json::exception& ex) {
      *why = fmt::format("{} printed no Scan: {}", reader, ex.what());
      return std::nullopt;
    }
    // The reader knows ELF addresses; the column reports where code runs.
    for (auto& [ext, use] : s.uses) out.uses.try_emplace(ext, Use{use.mnemonic, use.address + what.first, use.where});
    out.functions.insert(out.functions.end(), s.functions.begin(), s.functions.end());
    out.problems.insert(out.problems.end(), s.problems.begin(), s.problems.end());
    out.instructions += s.instructions;
    out.indirect_calls += s.indirect_calls;
    out.external_calls += s.external_calls;
  }
  return out;
}

}  // namespace lockstep::isa
