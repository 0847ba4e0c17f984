// Call-site patching: see site_patch.h for the stub and the protocol.
//
// Everything reachable from the SIGILL handler is async-signal-safe: plain
// stores, atomics, mmap and mprotect.
#include "sha512ext/site_patch.h"

#include <cpuid.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "env_value.h"

// Read by the entry routine: which XSAVE components to keep (XCR0 & 0xe7:
// x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM), the size of their image, the
// size of its frame on the emulator's stack (the image and room for the
// computation below it), and the computation it calls.
extern "C" {
__attribute__((visibility("hidden"))) uint64_t lockstep_sha512ext_xsave_mask = 0;
__attribute__((visibility("hidden"))) uint64_t lockstep_sha512ext_xsave_size = 0;
__attribute__((visibility("hidden"))) uint64_t lockstep_sha512ext_frame_size = 0;
__attribute__((visibility("hidden"))) uint64_t lockstep_sha512ext_frame_room = 0;  // with the alignment
__attribute__((visibility("hidden"))) lockstep::sha512ext::site_patch::Compute lockstep_sha512ext_compute = nullptr;
// The emulator's own stack, one per thread. The routine moves to its top,
// unless the patched code already runs on it: a signal handler that
// interrupted a computation runs there, below the interrupted frame, and
// its own emulation goes on below it.
alignas(64) [[gnu::visibility("hidden")]] thread_local uint8_t
    lockstep_sha512ext_stack[lockstep::sha512ext::site_patch::kEmulatorStackBytes];
void lockstep_sha512ext_stub_entry();

// Called, on the patched code's stack, when nested emulation would run past
// the emulator's stack: nothing sane can go on.
[[noreturn]] __attribute__((visibility("hidden"))) void lockstep_sha512ext_stack_exhausted() {
  static const char msg[] = "lockstep: sha512ext trap emulator: its stack is exhausted (emulation nested too deep)\n";
  (void)!write(2, msg, sizeof msg - 1);
  abort();
}
}

#define LOCKSTEP_STR2(x) #x
#define LOCKSTEP_STR(x) LOCKSTEP_STR2(x)
static_assert(lockstep::sha512ext::site_patch::kEmulatorStackBytes == LOCKSTEP_SHA512EXT_STACK_BYTES);

// The routine every stub calls, with the operands in the stub's slots just
// above the return address. It keeps the registers a C++ call may change
// (the caller-saved ones, RFLAGS, and through XSAVE the whole vector, x87
// and MXCSR state), moves to a frame of the emulator's own stack for the
// XSAVE image and the computation, and calls it. The header of the XSAVE
// image is zeroed first: XRSTOR faults on stale bytes there.
//
// A real VSHA512* instruction writes no memory, so nothing of the patched
// code's registers or of the computation may be left where the residue, abi
// and ct columns look: the frame is cleared before it is given back, the
// routine clears the slots it read and the words it pushed, and the stub
// clears the destination's slot and the return address.
__asm__(R"(
  .pushsection .text
  .p2align 4
  .globl lockstep_sha512ext_stub_entry
  .hidden lockstep_sha512ext_stub_entry
  .type lockstep_sha512ext_stub_entry, @function
lockstep_sha512ext_stub_entry:
  endbr64
  pushfq
  pushq %rax
  pushq %rcx
  pushq %rdx
  pushq %rsi
  pushq %rdi
  pushq %r8
  pushq %r9
  pushq %r10
  pushq %r11
  pushq %rbp
  movq %rsp, %rbp
  cld
  movq lockstep_sha512ext_stack@gottpoff(%rip), %rax
  addq %fs:0, %rax
  movq %rbp, %rdx
  subq %rax, %rdx
  cmpq $)" LOCKSTEP_STR(LOCKSTEP_SHA512EXT_STACK_BYTES) R"(, %rdx
  jb 1f
  leaq )" LOCKSTEP_STR(LOCKSTEP_SHA512EXT_STACK_BYTES) R"((%rax), %rsp
  jmp 2f
1:
  cmpq lockstep_sha512ext_frame_room(%rip), %rdx
  jb 9f
2:
  andq $-64, %rsp
  subq lockstep_sha512ext_xsave_size(%rip), %rsp
  xorl %eax, %eax
  movq %rax, 512(%rsp)
  movq %rax, 520(%rsp)
  movq %rax, 528(%rsp)
  movq %rax, 536(%rsp)
  movq %rax, 544(%rsp)
  movq %rax, 552(%rsp)
  movq %rax, 560(%rsp)
  movq %rax, 568(%rsp)
  movl lockstep_sha512ext_xsave_mask(%rip), %eax
  movl lockstep_sha512ext_xsave_mask+4(%rip), %edx
  xsave64 (%rsp)
  leaq 96(%rbp), %rdi
  call *lockstep_sha512ext_compute(%rip)
  movl lockstep_sha512ext_xsave_mask(%rip), %eax
  movl lockstep_sha512ext_xsave_mask+4(%rip), %edx
  xrstor64 (%rsp)
  movq lockstep_sha512ext_frame_size(%rip), %rcx
  movq lockstep_sha512ext_xsave_size(%rip), %rdi
  addq %rsp, %rdi
  subq %rcx, %rdi
  shrq $3, %rcx
  xorl %eax, %eax
  rep stosq
  leaq 128(%rbp), %rdi
  movl $9, %ecx
  xorl %eax, %eax
  rep stosq
  movq %rbp, %rsp
  popq %rbp
  popq %r11
  popq %r10
  popq %r9
  popq %r8
  popq %rdi
  popq %rsi
  popq %rdx
  popq %rcx
  popq %rax
  popfq
  movq $0, -8(%rsp)
  movq $0, -16(%rsp)
  movq $0, -24(%rsp)
  movq $0, -32(%rsp)
  movq $0, -40(%rsp)
  movq $0, -48(%rsp)
  movq $0, -56(%rsp)
  movq $0, -64(%rsp)
  movq $0, -72(%rsp)
  movq $0, -80(%rsp)
  movq $0, -88(%rsp)
  ret
9:
  andq $-16, %rsp
  call lockstep_sha512ext_stack_exhausted
  .size lockstep_sha512ext_stub_entry, .-lockstep_sha512ext_stub_entry
  .popsection
)");

namespace lockstep::sha512ext::site_patch {
namespace {

constexpr size_t kInsnLength = 5;
constexpr size_t kStubSize = 128;       // 103 bytes used
constexpr size_t kRegionSize = 1 << 16;  // stubs near one another
constexpr size_t kRegionHeader = 16;     // the entry routine's address
constexpr int kMaxRegions = 32;
constexpr size_t kTableSize = 4096;  // sites; a power of two

bool g_enabled = false;
size_t g_page = 4096;
std::atomic_flag g_lock = ATOMIC_FLAG_INIT;
std::atomic<uint64_t> g_patched{0};

// site -> stub, open addressing. A stub is stored before its site is
// published, so a reader that finds the site finds the stub.
std::atomic<uintptr_t> g_sites[kTableSize];
std::atomic<uintptr_t> g_stubs[kTableSize];
size_t g_entries = 0;  // under g_lock

struct Region {
  uintptr_t base = 0;
  size_t used = 0;
};
Region g_regions[kMaxRegions];
int g_region_count = 0;  // under g_lock

size_t slot_of(uintptr_t site) { return (site * 0x9e3779b97f4a7c15u >> 52) & (kTableSize - 1); }

bool fits_rel32(uintptr_t from_end, uintptr_t to) {
  const auto d = static_cast<int64_t>(to - from_end);
  return d >= INT32_MIN / 2 && d <= INT32_MAX / 2;  // a margin for the region's extent
}

// A fresh stub region within a rel32 jump of the site: mmap at hints that
// step away from it, and keep the first that lands close enough.
Region* new_region(uintptr_t site) {
  if (g_region_count == kMaxRegions) return nullptr;
  const uintptr_t origin = site & ~uintptr_t{kRegionSize - 1};
  constexpr uintptr_t kStep = uintptr_t{32} << 20;
  for (uintptr_t k = 1; k <= 48; ++k) {
    for (const bool below : {true, false}) {
      if (below && origin < k * kStep + kRegionSize) continue;
      const uintptr_t hint = below ? origin - k * kStep : origin + k * kStep;
      if (hint >= (uintptr_t{1} << 47) - kRegionSize) continue;
      void* p = mmap(reinterpret_cast<void*>(hint), kRegionSize, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (p == MAP_FAILED) continue;
      const auto base = reinterpret_cast<uintptr_t>(p);
      if (!fits_rel32(site + kInsnLength, base) || !fits_rel32(base + kRegionSize, site)) {
        munmap(p, kRegionSize);  // a kernel that took the hint as a hint only
        continue;
      }
      const auto entry = reinterpret_cast<uintptr_t>(&lockstep_sha512ext_stub_entry);
      std::memcpy(p, &entry, sizeof entry);
      Region& r = g_regions[g_region_count++];
      r.base = base;
      r.used = kRegionHeader;
      return &r;
    }
  }
  return nullptr;
}

uint8_t* stub_memory(uintptr_t site, uintptr_t* entry_slot) {
  Region* r = nullptr;
  for (int i = 0; i < g_region_count && r == nullptr; ++i) {
    Region& c = g_regions[i];
    if (c.used + kStubSize <= kRegionSize && fits_rel32(site + kInsnLength, c.base) &&
        fits_rel32(c.base + kRegionSize, site))
      r = &c;
  }
  if (r == nullptr) r = new_region(site);
  if (r == nullptr) return nullptr;
  *entry_slot = r->base;
  uint8_t* p = reinterpret_cast<uint8_t*>(r->base + r->used);
  r->used += kStubSize;
  return p;
}

class Emitter {
 public:
  explicit Emitter(uint8_t* at) : at_(at) {}
  void bytes(std::initializer_list<uint8_t> b) {
    for (uint8_t x : b) at_[n_++] = x;
  }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) at_[n_++] = static_cast<uint8_t>(v >> (8 * i));
  }
  // vmovdqu between ymm `reg` and disp8(%rsp): VEX.256.F3.0F 7F (store) or
  // 6F (load), two-byte VEX with R inverted, ModRM 01 reg 100, SIB 24.
  void vmovdqu_rsp(uint8_t opcode, int reg, uint8_t disp) {
    bytes({0xc5, static_cast<uint8_t>((reg < 8 ? 0x80 : 0x00) | 0x7e), opcode,
           static_cast<uint8_t>(0x44 | ((reg & 7) << 3)), 0x24, disp});
  }
  uintptr_t here() const { return reinterpret_cast<uintptr_t>(at_ + n_); }
  size_t size() const { return n_; }

 private:
  uint8_t* at_;
  size_t n_ = 0;
};

void write_stub(uint8_t* at, uintptr_t entry_slot, uintptr_t site, uint8_t opcode, int dst, int src1,
                int src2) {
  Emitter e(at);
  e.bytes({0x48, 0x8d, 0xa4, 0x24});  // lea -256(%rsp), %rsp
  e.u32(static_cast<uint32_t>(-256));
  e.vmovdqu_rsp(0x7f, dst, 0);
  e.vmovdqu_rsp(0x7f, src1, 32);
  e.vmovdqu_rsp(0x7f, src2, 64);
  e.bytes({0xc7, 0x44, 0x24, 0x60});  // movl $opcode, 96(%rsp)
  e.u32(opcode);
  e.bytes({0xff, 0x15});  // call *entry(%rip)
  e.u32(static_cast<uint32_t>(entry_slot - (e.here() + 4)));
  e.vmovdqu_rsp(0x6f, dst, 0);
  // The destination's slot and the return address: the routine cleared
  // the rest (a real instruction writes no memory).
  e.bytes({0x48, 0xc7, 0x04, 0x24, 0, 0, 0, 0});  // movq $0, (%rsp)
  for (uint8_t disp : {uint8_t{8}, uint8_t{16}, uint8_t{24}, uint8_t{0xf8}}) {
    e.bytes({0x48, 0xc7, 0x44, 0x24, disp});  // movq $0, disp8(%rsp)
    e.u32(0);
  }
  e.bytes({0x48, 0x8d, 0xa4, 0x24});  // lea 256(%rsp), %rsp
  e.u32(256);
  e.bytes({0xe9});  // jmp site + 5
  e.u32(static_cast<uint32_t>(site + kInsnLength - (e.here() + 4)));
}

// The site becomes `jmp stub` in three steps, each leaving an instruction
// that either traps (06, then 06 with the new displacement) or jumps.
bool write_jump(uintptr_t site, uintptr_t stub) {
  const uintptr_t first = site & ~(g_page - 1);
  const uintptr_t last = (site + kInsnLength - 1) & ~(g_page - 1);
  const size_t len = last - first + g_page;
  void* page = reinterpret_cast<void*>(first);
  if (mprotect(page, len, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return false;
  volatile uint8_t* p = reinterpret_cast<volatile uint8_t*>(site);
  p[0] = 0x06;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const auto rel = static_cast<uint32_t>(stub - (site + kInsnLength));
  for (int i = 0; i < 4; ++i) p[1 + i] = static_cast<uint8_t>(rel >> (8 * i));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  p[0] = 0xe9;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  mprotect(page, len, PROT_READ | PROT_EXEC);
  return true;
}

}  // namespace

const char* switch_error() {
  static const std::string error = [] {
    const char* sw = std::getenv("LOCKSTEP_TRAP_PATCH");
    if (sw == nullptr || *sw == '\0' || env::parse_flag(sw)) return std::string();
    return env::flag_error("LOCKSTEP_TRAP_PATCH", sw);
  }();
  return error.empty() ? nullptr : error.c_str();
}

bool prepare(Compute compute) {
  lockstep_sha512ext_compute = compute;
  const char* sw = std::getenv("LOCKSTEP_TRAP_PATCH");
  if (sw != nullptr && std::strcmp(sw, "0") == 0) return g_enabled = false;
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return g_enabled = false;  // OSXSAVE
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  const uint64_t mask = ((uint64_t{hi} << 32) | lo) & 0xe7;
  if ((mask & 0x6) != 0x6) return g_enabled = false;
  uint64_t size = 512 + 64;
  for (unsigned i : {2u, 5u, 6u, 7u}) {
    if (!((mask >> i) & 1)) continue;
    __cpuid_count(0xd, i, a, b, c, d);
    if (uint64_t{a} + b > size) size = uint64_t{a} + b;
  }
  size = (size + 63) & ~uint64_t{63};
  if (size > 8192) return g_enabled = false;
  lockstep_sha512ext_xsave_mask = mask;
  lockstep_sha512ext_xsave_size = size;
  lockstep_sha512ext_frame_size = size + kComputeStackBytes;
  lockstep_sha512ext_frame_room = lockstep_sha512ext_frame_size + 64;
  const long page = sysconf(_SC_PAGESIZE);
  if (page > 0) g_page = static_cast<size_t>(page);
  return g_enabled = true;
}

uintptr_t stub_for(uintptr_t site) {
  for (size_t i = slot_of(site), n = 0; n < kTableSize; ++n, i = (i + 1) & (kTableSize - 1)) {
    const uintptr_t s = g_sites[i].load(std::memory_order_acquire);
    if (s == 0) return 0;
    if (s == site) return g_stubs[i].load(std::memory_order_relaxed);
  }
  return 0;
}

bool patch(uintptr_t site, uint8_t opcode, int dst, int src1, int src2) {
  if (!g_enabled || g_lock.test_and_set(std::memory_order_acquire)) return false;
  bool done = false;
  if (stub_for(site) == 0 && g_entries < kTableSize * 3 / 4) {
    uintptr_t entry_slot = 0;
    if (uint8_t* stub = stub_memory(site, &entry_slot)) {
      write_stub(stub, entry_slot, site, opcode, dst, src1, src2);
      size_t i = slot_of(site);
      while (g_sites[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & (kTableSize - 1);
      g_stubs[i].store(reinterpret_cast<uintptr_t>(stub), std::memory_order_relaxed);
      g_sites[i].store(site, std::memory_order_release);
      ++g_entries;
      done = write_jump(site, reinterpret_cast<uintptr_t>(stub));
      // A site the table names but that could not be rewritten still
      // traps, and the handler then resumes in the stub: correct either way.
      if (done) g_patched.fetch_add(1, std::memory_order_relaxed);
    }
  }
  g_lock.clear(std::memory_order_release);
  return done;
}

uint64_t patched_sites() { return g_patched.load(std::memory_order_relaxed); }

}  // namespace lockstep::sha512ext::site_patch
