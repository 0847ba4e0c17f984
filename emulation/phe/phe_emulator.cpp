// The PHE trap emulator: see phe_emulator.h for the model.
//
// Everything the handler calls is async-signal-safe: write, abort, and the
// OpenSSL compression functions (plain computation on caller-supplied
// memory). No allocation, no stdio.
#include "phe/phe_emulator.h"

#include <signal.h>
#include <ucontext.h>

#include <atomic>
#include <cstddef>
#include <cstring>

#include "cpu/cpu.h"
#include "phe/compress.h"
#include "trap/message.h"

namespace lockstep::phe {
namespace {

enum class Op { kNone, kXsha1, kXsha256, kXsha512 };

constexpr uint32_t kBlockMode = 0xffffffffu;  // EAX = -1

// Lock-free, so bumping it in the handler is async-signal-safe.
std::atomic<uint64_t> g_emulated{0};
static_assert(std::atomic<uint64_t>::is_always_lock_free);

const char* op_name(Op op) {
  switch (op) {
    case Op::kXsha1: return "REP XSHA1";
    case Op::kXsha256: return "REP XSHA256";
    case Op::kXsha512: return "REP XSHA512";
    case Op::kNone: break;
  }
  return "?";
}

trap::Message fault(Op op, uint64_t rip) {
  trap::Message m;
  m.text("lockstep phe emulator: ").text(op_name(op)).text(" at ").hex(rip).text(": ");
  return m;
}

// decode reads byte by byte and stops at the first mismatch, so it never
// reads past what the CPU itself fetched (a 2-byte ud2 at the end of a page).
Op decode(const uint8_t* p) {
  if (p[0] != 0xf3 || p[1] != 0x0f || p[2] != 0xa6) return Op::kNone;
  switch (p[3]) {
    case 0xc8: return Op::kXsha1;
    case 0xd0: return Op::kXsha256;
    case 0xe0: return Op::kXsha512;
    default: return Op::kNone;
  }
}

// XSHA1 keeps H0..H4 in a 32-byte buffer and zeroes the rest of it.
void store_sha1(uint8_t* state, const uint32_t h[5]) {
  std::memcpy(state, h, 20);
  std::memset(state + 20, 0, 12);
}

// blocks: block mode, ECX = n whole blocks. Returns the bytes consumed.
size_t blocks(Op op, uint8_t* state, const uint8_t* src, uint32_t n) {
  if (op == Op::kXsha512) {
    uint64_t h[8];
    std::memcpy(h, state, sizeof h);
    detail::sha512_blocks(h, src, n);
    std::memcpy(state, h, sizeof h);
    return size_t{128} * n;
  }
  uint32_t h[8];
  if (op == Op::kXsha1) {
    std::memcpy(h, state, 20);
    detail::sha1_blocks(h, src, n);
    store_sha1(state, h);
  } else {
    std::memcpy(h, state, sizeof h);
    detail::sha256_blocks(h, src, n);
    std::memcpy(state, h, sizeof h);
  }
  return size_t{64} * n;
}

// finalize: `done` bytes are already in the state, `total` is the message
// length, the remaining total - done bytes are at src. Returns them.
size_t finalize(Op op, uint8_t* state, const uint8_t* src, uint32_t done, uint32_t total) {
  const size_t rest = total - done;
  const size_t whole = rest / 64, tail = rest % 64;
  // The tail, 0x80, zeros and the 64-bit big-endian bit count: 1 or 2 blocks.
  uint8_t pad[128] = {};
  std::memcpy(pad, src + 64 * whole, tail);
  pad[tail] = 0x80;
  const size_t pad_blocks = tail < 56 ? 1 : 2;
  const uint64_t bits = uint64_t{total} * 8;
  for (int i = 0; i < 8; ++i) pad[64 * pad_blocks - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));

  uint32_t h[8];
  if (op == Op::kXsha1) {
    std::memcpy(h, state, 20);
    if (whole) detail::sha1_blocks(h, src, whole);
    detail::sha1_blocks(h, pad, pad_blocks);
    store_sha1(state, h);
  } else {
    std::memcpy(h, state, sizeof h);
    if (whole) detail::sha256_blocks(h, src, whole);
    detail::sha256_blocks(h, pad, pad_blocks);
    std::memcpy(state, h, sizeof h);
  }
  return rest;
}

void execute(Op op, greg_t* r) {
  const auto rip = static_cast<uint64_t>(r[REG_RIP]);
  const auto rax = static_cast<uint64_t>(r[REG_RAX]);
  const auto rcx = static_cast<uint64_t>(r[REG_RCX]);
  const auto* src = reinterpret_cast<const uint8_t*>(r[REG_RSI]);
  auto* state = reinterpret_cast<uint8_t*>(r[REG_RDI]);

  // The hardware faults on a misaligned state whatever the count; so do we.
  if (reinterpret_cast<uintptr_t>(state) % 16 != 0)
    fault(op, rip)
        .text("state buffer ")
        .hex(reinterpret_cast<uintptr_t>(state))
        .text(" is not 16-byte aligned")
        .die();
  // The count is ECX. Whether the engine reads ECX or RCX is undocumented,
  // so a count that means different things under the two readings is a bug.
  if (rcx >> 32)
    fault(op, rip)
        .text("RCX = ")
        .hex(rcx)
        .text(" has bits above ECX set; the count is ECX, keep RCX below 2^32")
        .die();
  const auto ecx = static_cast<uint32_t>(rcx);
  const auto eax = static_cast<uint32_t>(rax);  // the upper half of RAX is not read

  size_t consumed = 0;
  if (ecx != 0) {
    if (eax == kBlockMode) {
      consumed = blocks(op, state, src, ecx);
    } else if (op == Op::kXsha512) {
      fault(op, rip)
          .text("EAX = ")
          .hex(eax)
          .text(", but XSHA512 has only block mode (EAX = -1)")
          .die();
    } else if (eax % 64 != 0 || eax > ecx) {
      fault(op, rip)
          .text("finalize mode with EAX = ")
          .hex(eax)
          .text(" and ECX = ")
          .hex(ecx)
          .text(": EAX (bytes already hashed) must be a multiple of 64 and at most ECX")
          .die();
    } else {
      consumed = finalize(op, state, src, eax, ecx);
    }
  }
#if defined(LOCKSTEP_PLANT_EMULATOR_RSI)
  // Planted (teeth/, class p): RSI left where it was. lockstep's backends
  // never read it back, so only the emulator's self-test sees it.
  (void)consumed;
#else
  r[REG_RSI] = static_cast<greg_t>(reinterpret_cast<uintptr_t>(src) + consumed);
#endif
  r[REG_RCX] = 0;
  r[REG_RAX] = static_cast<greg_t>(kRaxPoison);
}

// The host's callback: REP XSHA* at RIP is performed, anything else is not ours.
bool handle(siginfo_t*, ucontext_t* uc) {
  greg_t* r = uc->uc_mcontext.gregs;
  const Op op = decode(reinterpret_cast<const uint8_t*>(r[REG_RIP]));
  if (op == Op::kNone) return false;
  execute(op, r);
  r[REG_RIP] += 4;
  g_emulated.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace

constinit const trap::Emulator kTrapEmulator = {
    .name = "phe",
    .title = "PHE",
    .provides = {cpu::Feature::kPhe, cpu::Feature::kPhe2},
    .prepare = nullptr,
    .handle = handle,
    .fuzz_runs = 0,
    .cpu_mask = "-sha_ni",
    // KaiXian KX-7000: Zhaoxin's vendor string, family 7 (the kernel's PHE
    // glue wants >= 7), model 0x6b stepping 1, as QEMU's ShiJiDaDao model
    // of it reports them.
    .identity = {.vendor = "  Shanghai  ", .family = 7, .model = 0x6b, .stepping = 1,
                 .brand = "ZHAOXIN KaiXian KX-7000 (modelled by the PHE trap emulator)"},
};

uint64_t emulated_instructions() { return g_emulated.load(std::memory_order_relaxed); }

}  // namespace lockstep::phe
