#include "run/gtest_results.h"

#include "process.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace lockstep::cli {
SuiteRun run_gtest(const std::vector<std::string>& command, const std::vector<std::string>& args,
                   const std::vector<std::pair<std::string, std::string>>& env,
                   const std::string& json_path, const std::string& log_path) {
  SuiteRun run;
  const std::string& binary = command.back();
  std::vector<std::string> argv = command;
  argv.push_back("--gtest_output=json:" + json_path);
  argv.insert(argv.end(), args.begin(), args.end());
  std::remove(json_path.c_str());
  const ProcessResult pr = run_process(argv, env, log_path);
  run.exit_status = pr.status;
  run.error = pr.error;
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
        o.warning = t.value("lockstep_warning", "");
        o.note = t.value("lockstep_note", "");
        o.ktap = t.value("lockstep_ktap", "");
        o.seconds = std::strtod(t.value("time", "0s").c_str(), nullptr);  // "0.123s"
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
