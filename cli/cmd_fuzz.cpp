// `lockstep fuzz`: runs a harness under libFuzzer where the fuzz preset is
// built, otherwise through the replay-and-random driver, with a progress
// line at least once a second on a terminal and a summary at the end.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "commands.h"

extern char** environ;

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// What the output has told us so far.
struct FuzzerStatus {
  unsigned long long execs = 0, execs_per_s = 0, corpus = 0;
  std::string signature;  // the harness's "lockstep: ... != oracle" line
  std::string artifact;   // libFuzzer's crash file
  bool done = false;
};

// The number right after `key` in `line`, if there is one.
std::optional<unsigned long long> number_after(std::string_view line, std::string_view key) {
  const size_t at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  size_t i = at + key.size();
  if (i >= line.size() || line[i] < '0' || line[i] > '9') return std::nullopt;
  unsigned long long v = 0;
  for (; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) v = v * 10 + static_cast<unsigned>(line[i] - '0');
  return v;
}

// Reads libFuzzer's status lines ("#4096 NEW cov: ... corp: 57/3Kb ...
// exec/s: 21000"), the harness's "[lockstep] execs=N", the final "Done N
// runs", crash artifacts and the harness's mismatch signature.
void absorb(std::string_view line, FuzzerStatus& p) {
  std::optional<unsigned long long> n;
  if (line.starts_with("#")) n = number_after(line, "#");
  if (!n) n = number_after(line, "[lockstep] execs=");
  if (!n && line.starts_with("Done ")) n = number_after(line, "Done ");
  if (n) p.execs = std::max(p.execs, *n);
  if (auto rate = number_after(line, "exec/s: ")) p.execs_per_s = *rate;
  if (auto corp = number_after(line, "corp: ")) p.corpus = *corp;
  if (const size_t at = line.find("Test unit written to "); at != std::string_view::npos)
    p.artifact = std::string(line.substr(at + 21));
  if (line.starts_with("lockstep: ") && p.signature.empty()) p.signature = std::string(line);
}

size_t count_files(const fs::path& dir) {
  std::error_code ec;
  size_t n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); ++it) ++n;
  return n;
}

// The [libfuzzer] section of <harness>.options, as -key=value flags.
std::vector<std::string> options_flags(const fs::path& options) {
  std::vector<std::string> flags;
  std::ifstream in(options);
  bool section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("[")) {
      section = line == "[libfuzzer]";
      continue;
    }
    const size_t eq = line.find('=');
    if (!section || eq == std::string::npos) continue;
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
      return s;
    };
    flags.push_back("-" + trim(line.substr(0, eq)) + "=" + trim(line.substr(eq + 1)));
  }
  return flags;
}

}  // namespace

int cmd_fuzz(const FuzzOptions& o) {
  const fs::path src = LOCKSTEP_SOURCE_DIR;
  const fs::path libfuzzer = src / "build/fuzz/fuzz" / ("fuzz_" + o.target);
  const fs::path replay = fs::path(LOCKSTEP_BUILD_DIR) / "fuzz" / ("fuzz_" + o.target + "_replay");
  const fs::path seeds = src / "fuzz/corpus" / o.target;
  if (!fs::exists(replay)) {
    fmt::print(stderr, "lockstep fuzz: unknown harness '{}' (no {})\n", o.target, replay.string());
    return 1;
  }
  const bool use_libfuzzer = fs::exists(libfuzzer);
  const fs::path corpus = o.corpus.empty() ? src / "corpus" / o.target : fs::path(o.corpus);
  fs::create_directories(corpus);
  const fs::path log_path = fs::path(LOCKSTEP_BUILD_DIR) / ("fuzz_" + o.target + ".log");

  std::vector<std::string> argv;
  if (use_libfuzzer) {
    argv = {libfuzzer.string(), fmt::format("-max_total_time={}", o.seconds), "-print_final_stats=1"};
    for (const std::string& f : options_flags(src / "fuzz" / ("fuzz_" + o.target + ".options"))) {
      // The options file names the dictionary relative to itself.
      if (f.starts_with("-dict=")) argv.push_back("-dict=" + (src / "fuzz" / f.substr(6)).string());
      else argv.push_back(f);
    }
    if (o.jobs > 1) argv.push_back(fmt::format("-fork={}", o.jobs));
    argv.push_back(corpus.string());
    argv.push_back(seeds.string());
  } else {
    argv = {replay.string(), "--seconds", std::to_string(o.seconds), "--save-failure",
            (fs::path(LOCKSTEP_BUILD_DIR) / ("fuzz_" + o.target + "-failure")).string(),
            seeds.string(), corpus.string()};
  }
  fmt::print("lockstep fuzz: {} via {} for {} s, corpus {} (log {})\n", o.target,
             use_libfuzzer ? "libFuzzer" : "the replay driver (no fuzz build: ./lockstep fuzz builds it when clang-19 is installed)",
             o.seconds, corpus.string(), log_path.string());
  std::fflush(stdout);

  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return 1;
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  setenv("LOCKSTEP_FUZZ_PROGRESS", "1", 1);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
  pid_t pid;
  const int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pipefd[1]);
  if (rc != 0) {
    fmt::print(stderr, "lockstep fuzz: cannot run {}: {}\n", argv[0], std::strerror(rc));
    return 1;
  }

  const bool tty = isatty(1);
  std::ofstream log(log_path);
  FuzzerStatus p;
  std::string pending;
  const Clock::time_point start = Clock::now();
  Clock::time_point last_print = start;
  auto status = [&] {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const unsigned long long rate = p.execs_per_s ? p.execs_per_s
                                    : elapsed > 0 ? static_cast<unsigned long long>(p.execs / elapsed) : 0;
    return fmt::format("execs {} | {}/s | corpus {} | {:.0f}/{} s", p.execs, rate,
                       p.corpus ? p.corpus : count_files(corpus), elapsed, o.seconds);
  };
  for (;;) {
    pollfd pfd{pipefd[0], POLLIN, 0};
    const int ready = poll(&pfd, 1, 250);
    if (ready > 0) {
      char buf[4096];
      const ssize_t n = read(pipefd[0], buf, sizeof buf);
      if (n <= 0) break;
      log.write(buf, n);
      pending.append(buf, static_cast<size_t>(n));
      for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
        absorb(pending.substr(0, nl), p);
    }
    const auto now = Clock::now();
    if (now - last_print >= std::chrono::seconds(tty ? 1 : 10)) {
      last_print = now;
      if (tty) fmt::print("\r\033[K{}", status());
      else fmt::print("{}\n", status());
      std::fflush(stdout);
    }
  }
  close(pipefd[0]);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (tty) fmt::print("\r\033[K");
  const bool ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  if (ok) {
    fmt::print("fuzz_{}: {}, no mismatch\n", o.target, status());
    return 0;
  }
  fmt::print("fuzz_{}: FAILED after {}\n", o.target, status());
  if (!p.signature.empty()) fmt::print("  {}\n", p.signature);
  if (!p.artifact.empty()) fmt::print("  reproduce: {} {}\n", argv[0], p.artifact);
  fmt::print("  full report in {}\n", log_path.string());
  return 1;
}

}  // namespace lockstep::cli
