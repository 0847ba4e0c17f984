#include "gtest_results.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace lockstep::cli {
namespace {

int spawn_and_wait(const std::vector<std::string>& argv, const std::string& log_path,
                   std::string& error) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  const int rc = posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    error = fmt::format("cannot run {}: {}", argv[0], std::strerror(rc));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace

SuiteRun run_gtest(const std::string& binary, const std::vector<std::string>& args,
                   const std::string& json_path, const std::string& log_path) {
  SuiteRun run;
  std::vector<std::string> argv{binary, "--gtest_output=json:" + json_path};
  argv.insert(argv.end(), args.begin(), args.end());
  std::remove(json_path.c_str());
  run.exit_status = spawn_and_wait(argv, log_path, run.error);
  if (!run.error.empty()) return run;

  std::ifstream in(json_path);
  if (!in) {
    run.error = run.exit_status < 0
                    ? fmt::format("{} died of signal {} before writing its report; see {}", binary,
                                  -run.exit_status, log_path)
                    : fmt::format("{} wrote no report (exit {}); see {}", binary, run.exit_status,
                                  log_path);
    return run;
  }
  try {
    const nlohmann::json report = nlohmann::json::parse(in);
    for (const auto& suite : report.at("testsuites")) {
      for (const auto& t : suite.at("testsuite")) {
        TestOutcome o;
        o.suite = suite.at("name").get<std::string>();
        o.name = t.at("name").get<std::string>();
        if (t.contains("failures") && !t["failures"].empty()) {
          o.result = TestOutcome::kFailed;
          o.failure = t["failures"][0].at("failure").get<std::string>();
        } else if (t.value("result", "") == "SKIPPED") {
          o.result = TestOutcome::kSkipped;
          o.skip_reason = t.value("skip_reason", "");
        }
        run.tests.push_back(std::move(o));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    run.error = fmt::format("cannot read {}: {}", json_path, e.what());
  }
  if (run.error.empty() && run.exit_status != 0 && run.tests.empty())
    run.error = fmt::format("{} exited with {} and ran no test; see {}", binary, run.exit_status, log_path);
  return run;
}

}  // namespace lockstep::cli
