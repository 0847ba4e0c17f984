// lockstep_bench: Google Benchmark over every backend in the catalog, with
// OpenSSL and Crypto++ as anchors. Each file registers one kind of
// benchmark; main.cpp decides the order they run in.
//
// Names are '/'-separated so `lockstep bench` can parse them back:
//   hash/<alg>/<backend>/<len>      one-shot digest ("hash/sha256/sha256/x86-shani/4096")
//   crypt/<alg>/<backend>/<len>     one message: init and crypt ("crypt/chacha20/chacha/x86-avx2/1024")
//   anchor/<alg>/<library>/<len>    openssl or cryptopp ("anchor/sha256/openssl/4096")
//   finup2x/<backend>/salt<n>       finup_2x of two 4096-byte messages after an n-byte prefix
//   pair/<backend>/salt<n>          the same two digests, one after the other
//   modcall/<alg>/<backend>/<len>/{guarded,direct}
//                                   a module backend through the abi guard, as
//                                   the checks call it, and straight, as hash/
//                                   and crypt/ call it
//   kfpu/<model>/{entry,section}    the kernel_fpu model's own cost: one entry
//                                   into the kernel with a section and the
//                                   return to user space, or one further
//                                   section within an entry (kernel_fpu.cpp)
// Every benchmark but kfpu/ reports bytes/s of message data (prefixes
// excluded). A module built with the kernel environment adds the counters
// kernel_fpu_sections and kernel_fpu_saves, per call (KernelEntries).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include "backend.h"
#include "catalog.h"
#include "host/kernel_host.h"

namespace lockstep::bench {

// The kernel's benchmark lengths (lib/crypto/tests): short, around the block
// sizes, odd, and long.
inline constexpr size_t kLengths[] = {1, 16, 64, 127, 128, 200, 256, 511, 512, 1024, 3173, 4096, 16384};

// finup_2x: dm-verity's block size and salt lengths (none, SHA-256's, one block).
inline constexpr size_t kFinupLength = 4096;
inline constexpr size_t kSaltLengths[] = {0, 32, 64};

// bytes returns `n` bytes of a fixed pattern: the input never matters to
// these algorithms' speed, only that it is the same from run to run.
inline std::vector<uint8_t> bytes(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed * 131 + i * 7);
  return v;
}

// skip_reason is empty when `b` can run here (LOCKSTEP_CPU applies), else
// why not. Backends that cannot run are still registered and skip with this
// reason, so the report can say why a column is missing.
std::string skip_reason(const Backend& b);

// algorithms names one algorithm per catalog family, the one that stands
// for it: "sha256", "sha512", "chacha20" (backends.cpp).
std::vector<std::string_view> algorithms();

// Each registers its benchmarks of `alg` at `len`. main.cpp calls them length
// by length, so that a backend and the anchors it is compared with run
// close together in time: on a shared machine the clock drifts over a run.
void register_backends(std::string_view alg, size_t len);  // backends.cpp
void register_anchors(std::string_view alg, size_t len);   // anchors.cpp; none for others
void register_finup2x();                                   // finup2x.cpp
void register_module_calls();                              // module_calls.cpp

// How a module backend's functions are called. hash/ and crypt/ call them
// straight, as lockstep's own are, so a row measures the module's code;
// every check calls them through the abi guard (host/guard.h),
// whose cost modcall/ shows beside the direct calls.
enum class ModuleCalls { kDirect, kGuarded };

// The timed loops of hash/ and crypt/ (backends.cpp), for other files that
// time the same work another way.
void digest(benchmark::State& state, const catalog::HashAlgorithm& h, const Backend& b, size_t len,
            ModuleCalls calls);
void crypt(benchmark::State& state, const catalog::CipherAlgorithm& c, const Backend& b, size_t len,
           ModuleCalls calls);

// KernelEntries: while one is alive, a module built with the kernel
// environment runs its kernel_fpu sections as the kernel runs them for a
// user task (the lazy model, host/kernel_host.h: the user state
// saved at the first section of an entry, restored on the return to user
// space), unless LOCKSTEP_BENCH_KERNEL_FPU=strict. A timed loop calls
// return_to_user() after each call, so that every call is one entry into
// the kernel and pays one save and one restore, as a system call that
// hashes one message would. A kthread (dm-verity's workqueue) pays no save
// at all: finup2x/ never returns, its one save spread over the run.
// count() adds the sections and saves per call to the benchmark's
// counters. For lockstep's own backends it does nothing.
class KernelEntries {
 public:
  explicit KernelEntries(const Backend& b);
  ~KernelEntries();
  KernelEntries(const KernelEntries&) = delete;
  KernelEntries& operator=(const KernelEntries&) = delete;

  void return_to_user() const {
    if (on_) module::kernel::return_to_user();
  }
  void count(benchmark::State& state) const;

 private:
  bool on_;
  module::kernel::FpuModel outer_;
  uint64_t before_sections_ = 0, before_saves_ = 0;
};

// kernel_fpu.cpp: choose_kernel_fpu_model reads LOCKSTEP_BENCH_KERNEL_FPU
// (lazy, the default, or strict; 2 for another value), before anything
// runs; register_kernel_fpu registers kfpu/; describe_kernel_fpu puts the
// model, its save and restore instructions, the area's size and XCR0 in
// the JSON's context ("lockstep_kernel_fpu_*").
int choose_kernel_fpu_model();
void register_kernel_fpu();
void describe_kernel_fpu();

// describe_backends records, in the JSON's context, each benchmarked
// backend's declared needs and whether it is lockstep's default here, its
// own or a module's: the peer table (cli/bench_report/peers.cpp) pairs backends
// by what they declare, never by their names. One key per backend,
// "lockstep_backend/<name>", valued "<default|own|module>;<needs>".
void describe_backends();

// Versions of the anchor libraries, for the JSON's context.
std::string openssl_version();
std::string cryptopp_version();

}  // namespace lockstep::bench
