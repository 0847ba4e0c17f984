// The ct column: constant time, in the spirit of ctgrind and BoringSSL's
// constant-time validation. ct_probe (ct/) runs the row's backend under
// Valgrind's memcheck with the key, nonce, HMAC key and message marked
// undefined; every branch or memory index memcheck finds depending on them
// fails the row, with the function and source line memcheck names. Where
// Valgrind cannot execute the backend's instructions (SHA-NI, AVX-512 in
// Valgrind 3.19) the cell is a SKIP that says so.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backend_fixture.h"
#include "cpu/cpu.h"

namespace lockstep::conformance {
namespace {

namespace fs = std::filesystem;

#ifdef LOCKSTEP_CT_PROBE
// What memcheck found, one entry per report: its kind and the first frames.
struct Finding {
  std::string kind;   // "Conditional jump or move depends on uninitialised value(s)"
  std::string where;  // "at 0x...: crypt (x86_avx2.cpp:120) | by ..."
};

std::vector<Finding> read_findings(const std::string& log) {
  std::vector<Finding> out;
  std::istringstream in(log);
  static const std::regex kind(R"(^==\d+== (Conditional jump or move depends on uninitialised value\(s\)|Use of uninitialised value of size \d+|Syscall param .* contains uninitialised byte\(s\)))");
  static const std::regex frame(R"(^==\d+==    (at|by) 0x[0-9A-Fa-f]+: (.*)$)");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, kind)) {
      out.push_back({m[1], ""});
    } else if (!out.empty() && std::regex_search(line, m, frame)) {
      Finding& f = out.back();
      if (std::count(f.where.begin(), f.where.end(), '|') < 2) f.where += (f.where.empty() ? "" : " | ") + m[2].str();
    }
  }
  return out;
}

// The first line of Valgrind's own complaint about an instruction it
// cannot translate, or "".
std::string unhandled_instruction(const std::string& log) {
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find("unhandled instruction bytes") != std::string::npos) return line.substr(line.find("vex"));
  return "";
}

std::string valgrind_path() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin"})
    if (fs::exists(fs::path(dir) / "valgrind")) return (fs::path(dir) / "valgrind").string();
  return "";
}
#endif

void check_ct(const std::string& algorithm, const Backend& b, const std::string& row) {
#ifndef LOCKSTEP_CT_PROBE
  (void)algorithm, (void)b, (void)row;
#if defined(LOCKSTEP_SANITIZED)
  return skip_not_applicable("memcheck does not run sanitizer builds: the default build runs this column");
#else
  return skip_with_reason("no ct probe in this build: it needs Valgrind's headers (Debian: valgrind) and a native build");
#endif
#else
  if (std::getenv("LOCKSTEP_CPU_MODEL") != nullptr || std::getenv("QEMU_CPU") != nullptr)
    return skip_not_applicable("runs under a QEMU CPU model here: Valgrind runs in the native environment");
  if (!cpu::state().in_process_emulator.empty())
    return skip_not_applicable("a trap emulator runs here, whose SIGILL handling Valgrind does not model");
  // Here a kernel glue takes its SIMD path on some calls and its generic
  // path on others: the native environment checks the one whole, and
  // LOCKSTEP_KERNEL_SIMD=unusable the other.
  if (const char* simd = std::getenv("LOCKSTEP_KERNEL_SIMD"); simd != nullptr && std::string_view(simd) == "alternate")
    return skip_not_applicable("the kernel glue alternates between its SIMD and generic paths here: the native "
                               "environment and LOCKSTEP_KERNEL_SIMD=unusable check each path whole");
  if (!b.usable(cpu::effective()))
    return skip_with_reason("the CPU lacks what it needs (" + b.needs.to_string() + ")");
  const std::string valgrind = valgrind_path();
  if (valgrind.empty()) return skip_with_reason("valgrind is not installed (Debian package valgrind)");

  // Valgrind writes its reports to a file of its own: the probe's output
  // and the reports do not interleave.
  const fs::path log = fs::temp_directory_path() / fmt::format("lockstep-ct-{}-{}.log", getpid(), row.size());
  const std::string cmd =
      fmt::format("'{}' --tool=memcheck --quiet --track-origins=no --error-limit=no --num-callers=6 "
                  "--log-file='{}' '{}' '{}' '{}' 2>&1",
                  valgrind, log.string(), LOCKSTEP_CT_PROBE, algorithm, std::string(b.name));
  std::string probe_output;
  int status = -1;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) probe_output += buf;
    status = pclose(p);
  }
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  const std::string report = text.str();

  if (const std::string u = unhandled_instruction(report); !u.empty())
    return skip_with_reason("Valgrind cannot execute its instructions: " + u);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
    return skip_with_reason("under Valgrind's CPU: " + probe_output.substr(0, probe_output.find('\n')));
  const std::vector<Finding> findings = read_findings(report);
  for (size_t i = 0; i < findings.size() && i < 4; ++i)
    ADD_FAILURE() << row << ": ct: " << findings[i].kind << " on a secret: " << findings[i].where;
  if (findings.size() > 4) ADD_FAILURE() << row << ": ct: and " << findings.size() - 4 << " more";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << row << ": ct: the probe under Valgrind ended with status " << status << ": " << probe_output
      << report.substr(0, 2000);
  // The probe's calls counted in its own process: this one made none.
  std::printf("[ NOTE     ] %s: ct: memcheck saw the secret-marked calls through; %zu findings\n", row.c_str(),
              findings.size());
#endif
}

// No BackendTest: the calls run in the probe, not in this process, so the
// fixture's proof that the backend ran here does not apply; the probe
// proves it by running (exit 0) or says why not (77).
class HashCt : public testing::TestWithParam<HashParam> {};
INSTANTIATE_TEST_SUITE_P(All, HashCt, testing::ValuesIn(hash_params()), HashParamName());

TEST_P(HashCt, NoSecretDependentBranchOrIndex) {
  const HashParam& p = GetParam();
  if (module_declines(*p.backend)) return;
  check_ct(std::string(p.alg->name), *p.backend, std::string(p.alg->name) + " @ " + std::string(p.backend->name));
}

class CipherCt : public testing::TestWithParam<CipherParam> {};
INSTANTIATE_TEST_SUITE_P(All, CipherCt, testing::ValuesIn(cipher_params()), CipherParamName());

TEST_P(CipherCt, NoSecretDependentBranchOrIndex) {
  const CipherParam& p = GetParam();
  if (module_declines(*p.backend)) return;
  if (const std::string u = p.alg->unsupported(p.backend); !u.empty()) return skip_not_applicable(u);
  check_ct(std::string(p.alg->name), *p.backend, std::string(p.alg->name) + " @ " + std::string(p.backend->name));
}

}  // namespace
}  // namespace lockstep::conformance
