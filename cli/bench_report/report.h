// Tables, charts and speed targets from lockstep_bench's JSON (Google
// Benchmark's format, names as bench/bench.h defines them). Pure functions
// of the parsed JSON, so tests can feed them a hand-written run. One file per
// job: report_parse.cpp, targets.cpp, tables.cpp and
// svg.cpp; what they share is in report_internal.h.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lockstep::cli::bench_report {

// Series is one backend or anchor of one algorithm: a line on the chart, a
// column in the table.
struct Series {
  std::string id;      // "sha256/x86-shani", or "openssl" / "cryptopp" for anchors
  std::string label;   // "x86-shani", "OpenSSL", "Crypto++"
  bool anchor = false;
  std::map<size_t, double> mbps;  // length in bytes -> 10^6 bytes per second
  std::string note;     // the benchmark's label (Crypto++'s code path, "SHANI")
  std::string skipped;  // why it did not run; set only if no length ran
  // From the run's context (bench.h's describe_backends); empty roles in
  // runs that predate it. role: "default" (dispatch's choice on the CPU
  // that ran it), "own" or "module"; needs: the declared ISA features,
  // space-separated, "" for none.
  std::string role, needs;
  // A module built with the kernel environment: its kernel_fpu sections
  // per call, by length (bench.h's KernelEntries); empty for the others.
  std::map<size_t, double> kernel_fpu_sections;

  bool generic() const { return id.ends_with("/generic"); }
  // Code lockstep did not write (a library's, a tree's): a peer in the
  // tables, never the subject of lockstep's own speed goals.
  bool module() const { return role == "module"; }
};

struct Algorithm {
  std::string name;             // "sha256"
  std::string display;          // "SHA-256"
  std::vector<size_t> lengths;  // every length measured, ascending
  std::vector<Series> series;   // backends in the run's order, then anchors

  const Series* find(std::string_view id) const;
};

// Finup2x is one backend at one salt length: finup_2x against the two
// digests it replaces, both over the same two messages.
struct Finup2x {
  std::string backend;  // "sha256/x86-shani"
  size_t salt = 0;
  std::optional<double> pair_mbps, finup_mbps;
  bool two_way = false;  // the backend's own 2-way path, not the fallback
  std::string skipped;
};

// ModuleCall is one module backend at one length: its rows call it
// straight (what `direct` measures), the checks through the abi guard.
struct ModuleCall {
  std::string backend;  // "sha256/openssl:SHA256_Transform"
  size_t length = 0;
  std::optional<double> direct_mbps, guarded_mbps;
  std::string skipped;

  // The guard's cost, in percent of the direct call's time.
  std::optional<double> overhead_percent() const {
    if (!direct_mbps || !guarded_mbps || *guarded_mbps <= 0) return std::nullopt;
    return (*direct_mbps / *guarded_mbps - 1) * 100;
  }
};

// KernelFpu is how the run modelled kernel_fpu_begin()/end() for the
// module rows (host/kernel_host.h's FpuModel) and what the model
// itself cost (bench.h's kfpu/ benchmarks).
struct KernelFpu {
  std::string model;          // "lazy", "strict"; "" when the run did not say
  std::string save, restore;  // "XSAVEOPT", "XRSTOR"
  size_t area = 0;            // bytes the save area has for XCR0; 0: unknown
  std::string xcr0;           // "0xe7"; "" off x86
  // CPU ns per entry into the kernel (a section and the return to user
  // space) and per further section within an entry, by model.
  std::map<std::string, double> entry_ns, section_ns;

  // What the model costs a call that opens `sections` sections, in ns:
  // unset when the run did not time what that takes.
  std::optional<double> ns_per_call(double sections) const;
};

struct Results {
  std::vector<Algorithm> algorithms;  // in the order the run had them
  std::vector<Finup2x> finup2x;
  std::vector<ModuleCall> module_calls;
  KernelFpu kernel_fpu;
  size_t finup2x_length = 0;  // bytes per message; 0: unknown
  double mhz = 0;             // the clock Google Benchmark read; 0: unknown
  // "Zen 4", "Intel", ...; "" when the run did not say (bench/cpu_generation.h).
  std::string cpu_generation;
  // What ran the benchmarks, for the header: ("CPU", "..."), ...
  std::vector<std::pair<std::string, std::string>> context;

  const Algorithm* find(std::string_view name) const;
  const Finup2x* find_finup2x(std::string_view backend, size_t salt) const;
};

// parse reads lockstep_bench's JSON. Entries it does not recognise are
// ignored; a document without a "benchmarks" array throws std::runtime_error.
// Repeated runs of one benchmark (--benchmark_repetitions) count by median.
Results parse(const nlohmann::json& j);

// Target is one speed goal of the issue, measured in this run: a ratio of
// two throughputs that should be at least `goal`.
struct Target {
  int group = 0;         // the numbering
  std::string what;      // "sha256/x86-shani / OpenSSL @ 64 B"
  double goal = 0;
  std::optional<double> ratio;  // unset: not measured here
  std::string missing;   // why not, when unset
  // The CPU generations the goal was set for (empty: any CPU), and why
  // this run's does not count when it is not one of them.
  std::vector<std::string> judged_on;
  std::string not_judged;

  bool judged() const { return not_judged.empty(); }
  bool met() const { return judged() && ratio && *ratio >= goal; }
  // By how much the ratio falls short of the goal, in percent of the goal.
  double shortfall_percent() const { return ratio ? (1 - *ratio / goal) * 100 : 0; }
};
std::vector<Target> targets(const Results& r);

// markdown renders every table: one per algorithm (rows: lengths; columns:
// MB/s per backend and anchor, then each non-generic backend's ratio to
// generic and to OpenSSL), the finup_2x table and the speed targets.
std::string markdown(const Results& r);
std::string algorithm_table(const Algorithm& a);
// cycles_table is the same rows in cycles per byte at `mhz` (MHz / MB/s),
// so runs on machines of other clocks compare; "" without a clock.
std::string cycles_table(const Algorithm& a, double mhz);
std::string finup2x_table(const Results& r);

// CallCost is a series' time per message fitted over its lengths as
// fixed_ns + block_ns * blocks (compressions, or 64-byte keystream blocks).
struct CallCost {
  double fixed_ns = 0, block_ns = 0;
  size_t points = 0;            // lengths fitted
  double worst_residual = 0;    // largest |fit - measured| / measured
};
// call_cost is unset for fewer than three lengths, or an algorithm whose
// blocks it cannot count.
std::optional<CallCost> call_cost(const Algorithm& a, const Series& s);
// call_cost_table: one row per series with a fit, cycles at `mhz` (none
// without a clock); "" when no series has one.
std::string call_cost_table(const Algorithm& a, double mhz);
std::string module_call_table(const Results& r);  // "" without module backends
// kernel_fpu_table says how the run modelled the kernel's FPU sections and
// what they cost, then, per module backend with sections, at its shortest
// and longest length: sections per call, the model's ns per call and their
// share of the call's time. "" when the run has none of it.
std::string kernel_fpu_table(const Results& r);
std::string targets_table(const std::vector<Target>& t);

// Peer is one of lockstep's own non-generic backends beside the module
// backends (a kernel's, from `lockstep tree`) of the same family whose
// needs are closest to its own (equal, or the fewest features apart while
// sharing at least one; every own backend at that distance); a module that declares none (a kernel glue,
// whose init picks the path from the CPU) goes beside dispatch's default.
struct Peer {
  const Series* own = nullptr;
  std::vector<const Series*> peers;  // empty: no peer
};
std::vector<Peer> peers(const Algorithm& a);
// peer_table renders peers() of every algorithm: MB/s by length side by
// side with own / peer. "" when the run has no module backend.
std::string peer_table(const Results& r);

// before_after_table renders, for every backend whose id ends in `suffix`
// (a patched tree's ".series"), its MB/s by length beside the backend of
// the same id without it, and their ratio: the seed-style table of a patch
// series. Empty when no id ends in `suffix`.
std::string before_after_table(const Results& r, std::string_view suffix);

// svg draws MB/s against length for one algorithm: log-scale x with a tick
// at each length, log-scale y, one polyline per series that has data
// (anchors dashed), a legend, axis labels and a title.
std::string svg(const Algorithm& a, const Results& r);

// x_position is where a length lies on svg()'s x axis, in pixels, for the
// lengths of `a`: exposed so tests can check the scale.
double x_position(const Algorithm& a, size_t length);

}  // namespace lockstep::cli::bench_report
