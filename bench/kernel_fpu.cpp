// The kernel's FPU sections as a kernel would run them (bench.h's
// KernelEntries): lockstep_bench runs kernel glue with the lazy kernel_fpu
// model (host/kernel_host.h's FpuModel), so that a module's rows at
// short lengths pay what a system call hashing one message pays, and says
// what the model itself costs (kfpu/ benchmarks) and how it saves.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bench.h"
#include "host/kernel_host.h"

namespace lockstep::bench {

namespace kernel = module::kernel;

namespace {

// The model every benchmark thread runs kernel glue with, and whether the
// lazy one exists here (x86-64), to be timed whichever runs the rows.
kernel::FpuModel g_model = kernel::FpuModel::kLazy;
bool g_lazy_modelled = false;

// What a module's section calls (kernel_compat.h's kernel_fpu_begin/end).
void begin() { kernel::host()->simd_begin("kernel_fpu_begin"); }
void end() { kernel::host()->simd_end("kernel_fpu_end"); }

// Sets the calling thread's model for one benchmark, and back.
class ThreadModel {
 public:
  explicit ThreadModel(kernel::FpuModel m) : outer_(kernel::thread_fpu_model()) { kernel::set_thread_fpu_model(m); }
  ~ThreadModel() { kernel::set_thread_fpu_model(outer_); }
  ThreadModel(const ThreadModel&) = delete;
  ThreadModel& operator=(const ThreadModel&) = delete;

 private:
  kernel::FpuModel outer_;
};

// The state saved is this process's, as a module row's is: what it has in
// use (XINUSE: glibc's EVEX string functions leave the opmasks and
// zmm16-31 in use on AVX-512 CPUs, and vzeroupper clears neither) decides
// how much the optimised save writes and the restore reads. Each section
// also reads XINUSE twice (XGETBV 1) for the dirty-upper count, which the
// kernel does not: on a Zen 4 guest, about 14 ns each.
//
// One entry into the kernel per iteration: a section (the save, in the
// lazy model) and the return to user space (the restore).
void entry(benchmark::State& state, kernel::FpuModel m) {
  const ThreadModel model(m);
  for (auto _ : state) {
    begin();
    end();
    kernel::return_to_user();
  }
}

// A further section within one entry per iteration: after the first,
// nothing to save in the lazy model; a save and a restore in the strict.
void further_section(benchmark::State& state, kernel::FpuModel m) {
  const ThreadModel model(m);
  begin();
  end();
  for (auto _ : state) {
    begin();
    end();
  }
  kernel::return_to_user();
}

std::string_view model_name(kernel::FpuModel m) { return m == kernel::FpuModel::kLazy ? "lazy" : "strict"; }

}  // namespace

int choose_kernel_fpu_model() {
  constexpr const char* kVar = "LOCKSTEP_BENCH_KERNEL_FPU";
  const char* v = std::getenv(kVar);
  const std::string_view value = v ? v : "";
  if (value.empty() || value == "lazy") g_model = kernel::FpuModel::kLazy;
  else if (value == "strict") g_model = kernel::FpuModel::kStrict;
  else {
    std::fprintf(stderr, "lockstep_bench: %s=%s: not one of lazy, strict\n", kVar, v);
    return 2;
  }
  // arm64 keeps the strict model (kernel_sections.c), which the report
  // then names: ask, and go back to strict until a benchmark needs it.
  g_lazy_modelled = kernel::set_thread_fpu_model(kernel::FpuModel::kLazy) == kernel::FpuModel::kLazy;
  kernel::set_thread_fpu_model(kernel::FpuModel::kStrict);
  if (!g_lazy_modelled) g_model = kernel::FpuModel::kStrict;
  return 0;
}

KernelEntries::KernelEntries(const Backend& b)
    : on_(b.kernel_environment), outer_(kernel::thread_fpu_model()) {
  if (!on_) return;
  kernel::set_thread_fpu_model(g_model);
  const kernel::SectionStats now = kernel::section_stats();
  before_sections_ = now.sections;
  before_saves_ = now.saves;
}

KernelEntries::~KernelEntries() {
  if (!on_) return;
  kernel::return_to_user();
  kernel::set_thread_fpu_model(outer_);
}

void KernelEntries::count(benchmark::State& state) const {
  if (!on_) return;
  const kernel::SectionStats now = kernel::section_stats();
  using benchmark::Counter;
  state.counters["kernel_fpu_sections"] =
      Counter(static_cast<double>(now.sections - before_sections_), Counter::kAvgIterations);
  state.counters["kernel_fpu_saves"] = Counter(static_cast<double>(now.saves - before_saves_), Counter::kAvgIterations);
}

void register_kernel_fpu() {
  const std::string lazy = "kfpu/" + std::string(model_name(kernel::FpuModel::kLazy));
  const std::string strict = "kfpu/" + std::string(model_name(kernel::FpuModel::kStrict));
  // Off x86-64 the lazy model is the strict one: nothing apart to time.
  if (g_lazy_modelled) {
    benchmark::RegisterBenchmark((lazy + "/entry").c_str(),
                                 [](benchmark::State& s) { entry(s, kernel::FpuModel::kLazy); });
    benchmark::RegisterBenchmark((lazy + "/section").c_str(),
                                 [](benchmark::State& s) { further_section(s, kernel::FpuModel::kLazy); });
  }
  // The strict model's section, as the checks run it, for comparison.
  benchmark::RegisterBenchmark((strict + "/section").c_str(),
                               [](benchmark::State& s) { further_section(s, kernel::FpuModel::kStrict); });
}

void describe_kernel_fpu() {
  const kernel::FpuModelInfo i = [] {
    const ThreadModel model(g_model);
    return kernel::fpu_model_info();
  }();
  benchmark::AddCustomContext("lockstep_kernel_fpu_model", model_name(g_model).data());
  benchmark::AddCustomContext("lockstep_kernel_fpu_save", i.save);
  benchmark::AddCustomContext("lockstep_kernel_fpu_restore", i.restore);
  benchmark::AddCustomContext("lockstep_kernel_fpu_area", std::to_string(i.area_bytes));
  if (i.xcr0 != 0) benchmark::AddCustomContext("lockstep_kernel_fpu_xcr0", fmt::format("{:#x}", i.xcr0));
}

}  // namespace lockstep::bench
