// lockstep_bench: registers every benchmark (bench.h), records what ran them
// in the JSON context, and hands over to Google Benchmark's flags
// (--benchmark_filter, --benchmark_min_time, --benchmark_out, ...).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "bench.h"
#include "cpu_generation.h"
#include "cpu/cpu.h"

int main(int argc, char** argv) {
  using namespace lockstep;
  if (const int rc = bench::choose_kernel_fpu_model(); rc != 0) return rc;
  for (const std::string_view alg : bench::algorithms()) {
    for (const size_t len : bench::kLengths) {
      bench::register_backends(alg, len);
      bench::register_anchors(alg, len);
    }
  }
  bench::register_finup2x();
  bench::register_module_calls();
  bench::register_kernel_fpu();

  // Numbers mean little without the CPU and the features dispatch could use.
  const cpu::State& cs = cpu::state();
  benchmark::AddCustomContext("lockstep_cpu", cs.identity.brand.empty() ? cs.identity.vendor : cs.identity.brand);
  benchmark::AddCustomContext("lockstep_cpu_features", cpu::effective().to_string());
  if (!cs.identity.vendor.empty())
    benchmark::AddCustomContext("lockstep_cpu_id", fmt::format("{} family {:#x} model {:#x}", cs.identity.vendor,
                                                               cs.identity.family, cs.identity.model));
  // Timings are the host's, whatever identity the environment gives its
  // CPU: the targets are judged by the host's generation.
  benchmark::AddCustomContext("lockstep_cpu_generation", bench::generation(cs.detection.id));
  if (!cs.identity_by.empty())
    benchmark::AddCustomContext("lockstep_cpu_identity_by", cs.identity_by);
  if (const char* mask = std::getenv("LOCKSTEP_CPU")) benchmark::AddCustomContext("lockstep_cpu_mask", mask);
  benchmark::AddCustomContext("openssl_version", bench::openssl_version());
  benchmark::AddCustomContext("cryptopp_version", bench::cryptopp_version());
  benchmark::AddCustomContext("lockstep_finup2x_length", std::to_string(bench::kFinupLength));
  bench::describe_backends();
  bench::describe_kernel_fpu();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
