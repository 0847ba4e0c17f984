#include "run/run_reports.h"

#include <fmt/format.h>

#include "xml_escape.h"

namespace lockstep::cli {
namespace {

// A KTAP description may hold neither '#' nor a line break.
std::string ktap_text(std::string s) {
  for (char& c : s)
    if (c == '#' || c == '\n' || c == '\r') c = ' ';
  return s;
}

struct Case {
  std::string name;
  Cell cell;
};

// Every cell of an environment, then its checks that are not per backend.
std::vector<Case> cases_of(const EnvReport& e) {
  std::vector<Case> out;
  if (!e.ran) {
    out.push_back({"environment", e.status});
    return out;
  }
  for (const RowKey& r : e.matrix.rows())
    for (const std::string& col : e.matrix.columns())
      out.push_back({fmt::format("{} @ {}: {}", r.algorithm, r.backend, col), e.matrix.get(r, col)});
  for (const auto& [name, cell] : e.matrix.notes()) out.push_back({name, cell});
  return out;
}

}  // namespace

std::string junit_xml(const std::vector<EnvReport>& envs) {
  int tests = 0, failures = 0, skipped = 0;
  std::string body;
  for (const EnvReport& e : envs) {
    if (e.not_selected) continue;
    const std::vector<Case> cases = cases_of(e);
    int f = 0, s = 0;
    std::string suite;
    for (const Case& c : cases) {
      suite += fmt::format("    <testcase classname=\"lockstep.{}\" name=\"{}\" time=\"{:.3f}\">", xml_escape(e.id),
                           xml_escape(c.name), c.cell.seconds);
      if (c.cell.status == Status::kFail) {
        ++f;
        suite += fmt::format("<failure message=\"{}\">{}{}</failure>", xml_escape(c.cell.detail),
                             xml_escape(c.cell.detail),
                             c.cell.reproduce.empty() ? "" : xml_escape("\nreproduce: " + c.cell.reproduce));
      } else if (c.cell.status == Status::kSkip) {
        ++s;
        suite += fmt::format("<skipped message=\"{}\"/>", xml_escape(c.cell.detail));
      } else if (c.cell.status == Status::kWarn) {
        // JUnit has no warning: a pass, with the warning where CI shows it.
        suite += fmt::format("<properties><property name=\"lockstep.status\" value=\"WARN\"/></properties>"
                             "<system-out>WARN: {}</system-out>",
                             xml_escape(c.cell.detail));
      }
      suite += "</testcase>\n";
    }
    // One testcase per failing test, with the command that reruns it.
    for (const FailedTest& t : e.failed_tests) {
      ++f;
      suite += fmt::format(
          "    <testcase classname=\"lockstep.{}.tests\" name=\"{}\" time=\"{:.3f}\"><failure message=\"{}\">{}</failure></testcase>\n",
          xml_escape(e.id), xml_escape(t.outcome.suite + "." + t.outcome.name), t.outcome.seconds,
          xml_escape(t.outcome.failure.substr(0, t.outcome.failure.find('\n'))),
          xml_escape(t.outcome.failure + "\nreproduce: " + t.reproduce));
    }
    const int n = static_cast<int>(cases.size() + e.failed_tests.size());
    tests += n;
    failures += f;
    skipped += s;
    std::string properties;
    if (e.ran) {
      properties = "    <properties>\n";
      for (const auto& [k, v] : e.provenance.items())
        properties += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(k),
                                  xml_escape(v.is_string() ? v.get<std::string>() : v.dump()));
      properties += "    </properties>\n";
    }
    body += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n{}{}  </testsuite>\n",
                        xml_escape(e.name), n, f, s, e.seconds, properties, suite);
  }
  return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"lockstep run\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n{}</testsuites>\n",
                     tests, failures, skipped, body);
}

std::string ktap(const std::vector<EnvReport>& all) {
  std::vector<const EnvReport*> envs;
  for (const EnvReport& e : all)
    if (!e.not_selected) envs.push_back(&e);
  std::string out = fmt::format("KTAP version 1\n1..{}\n", envs.size());
  int number = 0;
  for (const EnvReport* env : envs) {
    const EnvReport& e = *env;
    ++number;
    const std::vector<Case> cases = cases_of(e);
    out += fmt::format("  KTAP version 1\n  # Subtest: {}\n  1..{}\n", ktap_text(e.id), cases.size());
    bool failed = false;
    int i = 0;
    for (const Case& c : cases) {
      ++i;
      if (c.cell.status == Status::kFail) {
        failed = true;
        out += fmt::format("  # {}: {}\n", ktap_text(c.name), ktap_text(c.cell.detail));
        if (!c.cell.reproduce.empty()) out += fmt::format("  # reproduce: {}\n", ktap_text(c.cell.reproduce));
        out += fmt::format("  not ok {} {}\n", i, ktap_text(c.name));
      } else if (c.cell.status == Status::kSkip) {
        out += fmt::format("  ok {} {} # SKIP {}\n", i, ktap_text(c.name), ktap_text(c.cell.detail));
      } else if (c.cell.status == Status::kWarn) {
        // KTAP's directives are SKIP and TODO: a warning is a diagnostic line.
        out += fmt::format("  # WARN {}: {}\n", ktap_text(c.name), ktap_text(c.cell.detail));
        out += fmt::format("  ok {} {}\n", i, ktap_text(c.name));
      } else {
        out += fmt::format("  ok {} {}\n", i, ktap_text(c.name));
      }
    }
    if (failed) out += fmt::format("not ok {} {}\n", number, ktap_text(e.id));
    else if (!e.ran) out += fmt::format("ok {} {} # SKIP {}\n", number, ktap_text(e.id), ktap_text(e.status.detail));
    else out += fmt::format("ok {} {}\n", number, ktap_text(e.id));
  }
  return out;
}

}  // namespace lockstep::cli
