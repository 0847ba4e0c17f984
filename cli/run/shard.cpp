#include "run/shard.h"

#include <string.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include <fmt/format.h>

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// What a GoogleTest log says of a process that died before its report: the
// tests it finished, with their outcomes, and the one it died in (empty when
// every started test finished). A finished test's message is its log text.
struct DeadRun {
  std::vector<TestOutcome> finished;
  std::string unfinished;
};

// ended is the outcome of test `name`, whose end the log has just shown;
// `body` is the log's text since its start.
TestOutcome ended(const std::string& name, bool failed, bool skipped, const std::string& body) {
  const size_t dot = name.find('.');
  TestOutcome t{name.substr(0, dot), name.substr(dot + 1), TestOutcome::kPassed, "", "", ""};
  if (failed) t.result = TestOutcome::kFailed, t.failure = body;
  if (skipped) {
    // The reason the fixture printed (backend_fixture.cpp), else the
    // body: GoogleTest's own "file:line: Skipped" and message.
    const size_t why = body.find("[ SKIP WHY ] ");
    t.result = TestOutcome::kSkipped;
    t.skip_reason = why == std::string::npos ? body : body.substr(why + 13, body.find('\n', why) - why - 13);
  }
  return t;
}

DeadRun read_dead_run(const fs::path& log) {
  DeadRun d;
  std::ifstream in(log);
  std::string body;
  auto ends = [&](const std::string& line, const char* mark) {
    // "[       OK ] All/X.Y/z (3 ms)", "[  FAILED  ] All/X.Y/z, where ..."
    if (d.unfinished.empty() || !line.starts_with(mark)) return false;
    const std::string rest = line.substr(13);
    return rest.starts_with(d.unfinished) &&
           (rest.size() == d.unfinished.size() || rest[d.unfinished.size()] == ' ' ||
            rest[d.unfinished.size()] == ',');
  };
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("[ RUN      ] ")) {
      d.unfinished = line.substr(13);
      body.clear();
      continue;
    }
    const bool ok = ends(line, "[       OK ] "), failed = ends(line, "[  FAILED  ] "),
               skipped = ends(line, "[  SKIPPED ] ");
    if (ok || failed || skipped) {
      d.finished.push_back(ended(d.unfinished, failed, skipped, body));
      d.unfinished.clear();
    } else if (!d.unfinished.empty()) {
      body += line + "\n";
    }
  }
  return d;
}

}  // namespace

std::string how_it_died(int exit_status) {
  if (exit_status >= 0) return fmt::format("exited with status {} without a report", exit_status);
  const char* abbrev = sigabbrev_np(-exit_status);
  return fmt::format("died of signal {} (SIG{})", -exit_status, abbrev ? abbrev : "?");
}

SuiteRun run_shard(const Environment& env, const Shard& s, const fs::path& expected_cache) {
  auto vars = env.vars;
  vars.emplace_back("LOCKSTEP_CALLS", s.calls.string());
  vars.emplace_back("LOCKSTEP_EXPECTED_CACHE", expected_cache.string());
  std::vector<std::string> pending = s.tests;
  std::vector<TestOutcome> before;  // decided by processes that died later
  SuiteRun run;
  for (int attempt = 0;; ++attempt) {
    std::string filter;
    for (const std::string& t : pending) filter += (filter.empty() ? "" : ":") + t;
    const fs::path log = attempt == 0 ? s.log : fs::path(s.log.string() + fmt::format(".rerun-{}", attempt));
    run = run_gtest(conformance_argv(env), {"--gtest_filter=" + filter}, vars, s.json.string(), log.string());
    if (run.error.empty()) break;
    DeadRun dead = read_dead_run(log);
    const auto it = std::find(pending.begin(), pending.end(), dead.unfinished);
    if (dead.unfinished.empty() || it == pending.end()) break;  // not one test's doing: the shard fails
    const size_t dot = dead.unfinished.find('.');
    dead.finished.push_back({dead.unfinished.substr(0, dot), dead.unfinished.substr(dot + 1),
                             TestOutcome::kFailed,
                             fmt::format("crashed: {}; the suite process died in this test, its log: {}",
                                         how_it_died(run.exit_status), log.string()),
                             "", ""});
    for (const TestOutcome& t : dead.finished) {
      const auto done = std::find(pending.begin(), pending.end(), t.suite + "." + t.name);
      if (done != pending.end()) pending.erase(done);
    }
    before.insert(before.end(), dead.finished.begin(), dead.finished.end());
    if (pending.empty()) {
      run = SuiteRun{};
      break;
    }
  }
  if (run.error.empty()) run.tests.insert(run.tests.begin(), before.begin(), before.end());
  return run;
}

}  // namespace lockstep::cli
