// `lockstep fuzz`: runs a harness under libFuzzer where the fuzz preset is
// built and the environment (--env, as `lockstep run` has them) lets it
// run, otherwise through the replay-and-random driver of the environment's
// build, with a progress line at least once a second on a terminal and a
// summary at the end.
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
#include "output_paths.h"
#include "process.h"
#include "fuzz_env.h"

extern char** environ;

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// What the output has told us so far.
struct FuzzerStatus {
  unsigned long long execs = 0, execs_per_s = 0, corpus = 0;
  std::string signature;  // the harness's "lockstep: ... != oracle" line
  std::string fault;      // else a trap emulator's "lockstep phe emulator: ..." refusal
  std::string fault_case;  // and the crash report's "<harness>: the case: <backend> ..." line
  std::string artifact;   // libFuzzer's crash file, or the replay driver's
  std::string checks;     // the harness's "fuzz_<name>: checks ..." line
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
  for (const std::string_view key : {"Test unit written to ", "fuzz replay: saved it to "})
    if (const size_t at = line.find(key); at != std::string_view::npos)
      p.artifact = std::string(line.substr(at + key.size()));
  if (line.starts_with("fuzz_") && line.find(": checks ") != std::string_view::npos && p.checks.empty())
    p.checks = std::string(line);
  if (line.starts_with("lockstep: ") && p.signature.empty()) p.signature = std::string(line);
  if (line.starts_with("lockstep ") && p.fault.empty()) p.fault = std::string(line);
  if (line.find(": the case: ") != std::string_view::npos && p.fault_case.empty()) p.fault_case = std::string(line);
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

// The command that replays `input` as the run ran it: the environment's
// variables, its launcher, the binary.
std::string reproducer(const FuzzPlan& plan, const std::string& input) {
  std::vector<std::string> argv = plan.env.launcher;
  argv.push_back(plan.binary);
  argv.push_back(input);
  return command_line(plan.env.vars, argv);
}

// The arguments after the binary: libFuzzer's, with the harness's options
// file, or the replay driver's.
std::vector<std::string> driver_args(const FuzzOptions& o, const FuzzPlan& plan, const fs::path& corpus,
                                     const fs::path& failure) {
  const fs::path src = LOCKSTEP_SOURCE_DIR;
  const fs::path seeds = src / "fuzz/corpus" / o.target;
  if (!plan.libfuzzer)
    return {"--seconds", std::to_string(o.seconds), "--save-failure", failure.string(), seeds.string(),
            corpus.string()};
  std::vector<std::string> args = {fmt::format("-max_total_time={}", o.seconds), "-print_final_stats=1"};
  for (const std::string& f : options_flags(src / "fuzz" / ("fuzz_" + o.target + ".options"))) {
    // The options file names the dictionary relative to itself.
    if (f.starts_with("-dict=")) args.push_back("-dict=" + (src / "fuzz" / f.substr(6)).string());
    else args.push_back(f);
  }
  if (o.jobs > 1) args.push_back(fmt::format("-fork={}", o.jobs));
  args.push_back(corpus.string());
  args.push_back(seeds.string());
  return args;
}

// Made before the driver starts: a corpus path it cannot use is ours to report.
int make_corpus(const FuzzOptions& o, fs::path& corpus) {
  // The corpus a run grows is the build's, like every other output, unless
  // the user names one: the source tree holds only the committed seeds.
  corpus = o.corpus.empty() ? fs::path(LOCKSTEP_BUILD_DIR) / "fuzz-corpus" / o.target : fs::path(o.corpus);
  if (const std::string problem = output_dir_problem(corpus.string()); !problem.empty()) {
    fmt::print(stderr, "lockstep fuzz: corpus {}: {}\n", corpus.string(), problem);
    return 2;
  }
  std::error_code created;
  fs::create_directories(corpus, created);
  if (created) {
    fmt::print(stderr, "lockstep fuzz: corpus {}: {}\n", corpus.string(), created.message());
    return 1;
  }
  return 0;
}

// As the environment runs a binary: its launcher (QEMU, SDE, ...) first.
std::vector<std::string> driver_command(const FuzzOptions& o, const FuzzPlan& plan, const fs::path& corpus,
                                        const fs::path& failure) {
  std::vector<std::string> argv = plan.env.launcher;
  argv.push_back(plan.binary);
  for (std::string& a : driver_args(o, plan, corpus, failure)) argv.push_back(std::move(a));
  return argv;
}

// The driver as started: its process, and the read end of its output.
struct Driver {
  pid_t pid;
  int out;
};

// One pipe for the driver's output and errors: it feeds the log and the progress line.
std::optional<Driver> start_driver(std::vector<std::string> argv, const Environment& env) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return std::nullopt;
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  setenv("LOCKSTEP_FUZZ_PROGRESS", "1", 1);
  // The child inherits them; this process has read what it needs of them.
  for (const auto& [k, v] : env.vars) setenv(k.c_str(), v.c_str(), 1);
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
    return std::nullopt;
  }
  return Driver{pid, pipefd[0]};
}

// The progress line's figures, kept past the run: the result line repeats them.
struct ProgressLine {
  ProgressLine(fs::path corpus_dir, int run_seconds) : corpus(std::move(corpus_dir)), seconds(run_seconds) {}

  fs::path corpus;
  int seconds;
  bool tty = isatty(1);
  FuzzerStatus seen;
  Clock::time_point start = Clock::now();

  std::string line() const {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const unsigned long long rate = seen.execs_per_s ? seen.execs_per_s
                                    : elapsed > 0 ? static_cast<unsigned long long>(seen.execs / elapsed) : 0;
    return fmt::format("execs {} | {}/s | corpus {} | {:.0f}/{} s", seen.execs, rate,
                       seen.corpus ? seen.corpus : count_files(corpus), elapsed, seconds);
  }
};

// A run of minutes must show it is alive: the log, and a progress line at least once a second on a terminal.
int follow_driver(const Driver& d, std::ofstream& log, ProgressLine& progress) {
  bool checks_shown = false;
  std::string pending;
  Clock::time_point last_print = progress.start;
  for (;;) {
    pollfd pfd{d.out, POLLIN, 0};
    const int ready = poll(&pfd, 1, 250);
    if (ready > 0) {
      char buf[4096];
      const ssize_t n = read(d.out, buf, sizeof buf);
      if (n <= 0) break;
      log.write(buf, n);
      pending.append(buf, static_cast<size_t>(n));
      for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
        absorb(pending.substr(0, nl), progress.seen);
      // Which backends are fuzzed (module ones too) and which are not here.
      if (!progress.seen.checks.empty() && !checks_shown) {
        checks_shown = true;
        fmt::print("{}{}\n", progress.tty ? "\r\033[K" : "", progress.seen.checks);
        std::fflush(stdout);
      }
    }
    const auto now = Clock::now();
    if (now - last_print >= std::chrono::seconds(progress.tty ? 1 : 10)) {
      last_print = now;
      if (progress.tty) fmt::print("\r\033[K{}", progress.line());
      else fmt::print("{}\n", progress.line());
      std::fflush(stdout);
    }
  }
  close(d.out);
  int wstatus = 0;
  while (waitpid(d.pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (progress.tty) fmt::print("\r\033[K");
  return wstatus;
}

// One line of result; a failure adds what the harness said and how to replay it.
int report_result(const FuzzOptions& o, const FuzzPlan& plan, int wstatus, const ProgressLine& progress,
                  const fs::path& log_path) {
  const FuzzerStatus& p = progress.seen;
  const bool ok = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
  if (ok) {
    fmt::print("fuzz_{}: {}, no mismatch\n", o.target, progress.line());
    return 0;
  }
  // Status 2 before a single input: the harness refused what it was given
  // (LOCKSTEP_FUZZ_BACKEND, a mask, a module), a usage error as ours are.
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 2 && p.execs == 0) {
    fmt::print(stderr, "lockstep fuzz: {} refused to start: {}\n", fs::path(plan.binary).filename().string(),
               !p.signature.empty() ? p.signature : !p.fault.empty() ? p.fault : "see " + log_path.string());
    return 2;
  }
  fmt::print("fuzz_{}: FAILED after {}\n", o.target, progress.line());
  if (!p.signature.empty()) fmt::print("  {}\n", p.signature);
  for (const std::string& l : {p.fault, p.fault_case})
    if (p.signature.empty() && !l.empty()) fmt::print("  {}\n", l);
  if (!p.artifact.empty()) fmt::print("  reproduce: {}\n", reproducer(plan, p.artifact));
  fmt::print("  full report in {}\n", log_path.string());
  return 1;
}

}  // namespace

int cmd_fuzz(const FuzzOptions& o) {
  // Before anything is created: a wrong --env leaves no corpus behind.
  FuzzPlan plan;
  if (const int rc = plan_fuzz(o, plan); rc != 0) return rc;
  const Environment& env = plan.env;
  fs::path corpus;
  if (const int rc = make_corpus(o, corpus); rc != 0) return rc;
  // One log and failure file per environment: runs in two can go at once.
  const std::string stem = "fuzz_" + o.target + (env.id == "native" ? "" : "-" + env.id);
  const fs::path log_path = fs::path(LOCKSTEP_BUILD_DIR) / (stem + ".log");
  std::vector<std::string> argv = driver_command(o, plan, corpus, fs::path(LOCKSTEP_BUILD_DIR) / (stem + "-failure"));
  fmt::print("lockstep fuzz: {}{} via {} for {} s, corpus {} (log {})\n", o.target,
             env.id == "native" ? "" : " in " + env.id + " (" + env.name + ")", plan.driver, o.seconds,
             corpus.string(), log_path.string());
  std::fflush(stdout);

  const std::optional<Driver> driver = start_driver(std::move(argv), env);
  if (!driver) return 1;
  std::ofstream log(log_path);
  ProgressLine progress{corpus, o.seconds};
  const int wstatus = follow_driver(*driver, log, progress);
  return report_result(o, plan, wstatus, progress, log_path);
}

}  // namespace lockstep::cli
