#include "bench/analyze.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/analyze/analyze_report.h"
#include "bench/analyze/binary_code.h"
#include "bench/analyze/hot_loop_table.h"
#include "bench/analyze/mca.h"
#include "bench/analyze/measured_cycles.h"
#include "process.h"
#include "task_pool.h"

namespace lockstep::cli {
namespace {

namespace fs = std::filesystem;

// AnalyzeScratch is a temporary folder, removed with everything in it.
class AnalyzeScratch {
 public:
  AnalyzeScratch() {
    std::string tmpl = (fs::temp_directory_path() / "lockstep-analyze-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~AnalyzeScratch() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  AnalyzeScratch(const AnalyzeScratch&) = delete;
  AnalyzeScratch& operator=(const AnalyzeScratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// mca_error_line is llvm-mca's first "error:" line in `log`, else its first line.
std::string mca_error_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty()) first = line;
    if (const size_t at = line.find("error: "); at != std::string::npos) return line.substr(at);
  }
  return first.empty() ? "no output" : first;
}

// predict_cycles_per_block runs llvm-mca on the loop in `assembly` for
// `model`, its files in `dir`.
analyze::Cell predict_cycles_per_block(const std::string& mca, std::string_view model, const fs::path& assembly,
                                       const fs::path& dir, double blocks_per_pass) {
  const fs::path json = dir / fmt::format("{}.json", model);
  const fs::path log = dir / fmt::format("{}.log", model);
  const ProcessResult run =
      run_process(analyze::mca_command(mca, model, assembly.string(), json.string()), {}, log.string());
  if (!run.error.empty()) return {{}, run.error};
  if (run.status != 0) return {{}, fmt::format("llvm-mca: {}", mca_error_line(log))};
  try {
    std::ifstream in(json);
    const analyze::McaCycles c = analyze::cycles_per_pass(nlohmann::json::parse(in));
    if (!c.per_pass) return {{}, c.problem};
    return {*c.per_pass / blocks_per_pass, ""};
  } catch (const std::exception& e) {
    return {{}, fmt::format("llvm-mca's JSON: {}", e.what())};
  }
}

}  // namespace

fs::path analyzed_binary() {
  const fs::path bench = LOCKSTEP_BENCH_BINARY;
  std::error_code ec;
  if (!bench.empty() && fs::exists(bench, ec)) return bench;
  return fs::read_symlink("/proc/self/exe", ec);
}

std::string analyze_filter() {
  std::string alternatives;
  for (const analyze::HotLoopRow& row : analyze::hot_loop_rows())
    alternatives += fmt::format("{}{}/{}", alternatives.empty() ? "" : "|", row.algorithm, row.backend);
  return fmt::format("^(hash|crypt)/({})/({}|{})$", alternatives, analyze::kShortLength, analyze::kLongLength);
}

std::string analyze_report(const bench_report::Results& results, const std::string& mca, const fs::path& binary) {
  analyze::Analysis a;
  for (const std::string_view m : analyze::mca_models()) a.models.emplace_back(m);
  a.host_generation = results.cpu_generation;
  a.host_model = std::string(analyze::host_model(results.cpu_generation, &a.host_model_guessed));
  a.mhz = results.mhz;
  a.binary = binary.filename().string();

  const analyze::BinaryCode code(binary.string());
  const AnalyzeScratch scratch;
  // Every backend's loop first, then llvm-mca on each (loop, model) side by
  // side: each run writes its own cell, and the backends stay put meanwhile.
  std::vector<fs::path> assemblies;
  for (const analyze::HotLoopRow& row : analyze::hot_loop_rows()) {
    analyze::BackendAnalysis b;
    b.backend = row.backend;
    b.blocks_per_pass = row.blocks_per_pass();
    analyze::FoundLoop loop = code.empty() ? analyze::no_loop(fmt::format("no function symbols in {}", binary.string()))
                              : scratch.path().empty() ? analyze::no_loop("cannot make a temporary folder")
                                                       : code.hot_loop(row);
    const fs::path dir = scratch.path() / fmt::format("{}", a.backends.size());
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!loop.assembly.empty()) {
      std::ofstream(dir / "loop.s") << loop.assembly;
      b.function = loop.function;
      b.address = loop.address;
      b.instructions = loop.instructions;
    }
    for (const std::string& m : a.models) b.predicted[m] = {{}, loop.problem};
    assemblies.push_back(loop.assembly.empty() ? fs::path() : dir / "loop.s");

    const bench_report::Algorithm* alg = results.find(row.algorithm);
    const bench_report::Series* series = alg ? alg->find(row.backend) : nullptr;
    if (series == nullptr) {
      b.measured = {{}, "not in this run"};
    } else {
      const analyze::Measured m = analyze::measured_cycles_per_block(*series, row.block_bytes, results.mhz);
      b.measured = {m.cycles_per_block, m.problem};
    }
    a.backends.push_back(std::move(b));
  }

  TaskPool pool(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  for (size_t k = 0; k < a.backends.size(); ++k) {
    if (assemblies[k].empty()) continue;
    for (auto& [model, cell] : a.backends[k].predicted) {
      const double per_pass = a.backends[k].blocks_per_pass;
      pool.add([&mca, &model, &cell, &assembly = assemblies[k], per_pass] {
        cell = predict_cycles_per_block(mca, model, assembly, assembly.parent_path(), per_pass);
      });
    }
  }
  pool.wait();
  return analyze::analyze_markdown(a);
}

}  // namespace lockstep::cli
