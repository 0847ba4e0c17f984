#include "stack.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>

#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__))
extern "C" std::uintptr_t lockstep_residue_call(lockstep::residue::RawFunction fn, const std::uintptr_t* args,
                                                void* stack_top, void* vectors, unsigned kind);
#else
// No stack switch for this architecture: kSupported is false, and call()
// is never reached.
static std::uintptr_t lockstep_residue_call(lockstep::residue::RawFunction, const std::uintptr_t*, void*, void*,
                                            unsigned) {
  std::abort();
}
#endif

namespace lockstep::residue {
namespace {

// The vector registers the assembly stores, by `kind`: on x86-64 the
// widest this CPU and OS let code use, on arm64 v0-v31 (SVE's wider Z
// registers are not read).
struct Vectors {
  unsigned kind;
  const char* prefix;
  std::size_t count, size;
};
Vectors vector_kind() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {2, "zmm", 32, 64};
  if (__builtin_cpu_supports("avx")) return {1, "ymm", 16, 32};
  return {0, "xmm", 16, 16};
#else
  return {0, "v", 32, 16};
#endif
}

// What the assembly keeps at the top of the stack across the call.
constexpr std::size_t kReserved = 32;

}  // namespace

Stack::Stack(std::size_t size) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  size = (size + page - 1) / page * page;
  map_size_ = size + page;
  void* m = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    std::perror("residue: mmap of the stack");
    std::abort();
  }
  map_ = static_cast<std::uint8_t*>(m);
  mprotect(map_, page, PROT_NONE);
  base_ = map_ + page;
  top_ = map_ + map_size_;
  std::memset(base_, kPattern, size);
  low_ = top_ - kReserved;
  const Vectors v = vector_kind();
  kind_ = v.kind;
  vector_prefix_ = v.prefix;
  vector_size_ = v.size;
  vector_count_ = v.count;
}

Stack::~Stack() { munmap(map_, map_size_); }

std::uintptr_t Stack::call(RawFunction fn, std::span<const std::uintptr_t> args) {
  if (!kSupported || args.size() > kMaxArgs) std::abort();
  // Only what the last call wrote needs the pattern again.
  std::memset(low_, kPattern, static_cast<std::size_t>(top_ - low_));
  std::uintptr_t words[kMaxArgs] = {};
  std::copy(args.begin(), args.end(), words);
  std::memset(vectors_, 0, sizeof vectors_);
  const std::uintptr_t result = lockstep_residue_call(fn, words, top_, vectors_, kind_);
  vector_bytes_ = vector_count_ * vector_size_;
  // The callee's frames end where the pattern starts; a word of pattern
  // inside them (an unwritten pad) does not end the search early.
  low_ = top_ - kReserved;
  for (std::uint8_t* p = base_; p < top_ - kReserved; ++p) {
    if (*p != kPattern) {
      low_ = p;
      break;
    }
  }
  return result;
}

std::span<const std::uint8_t> Stack::used() const {
  return {low_, static_cast<std::size_t>(top_ - kReserved - low_)};
}

std::string Stack::vector_name(std::size_t offset) const {
  return std::string(vector_prefix_) + std::to_string(offset / vector_size_);
}

}  // namespace lockstep::residue
