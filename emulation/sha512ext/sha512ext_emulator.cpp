// The SHA512-extension trap emulator: see sha512ext_emulator.h for the model
// and README.md for the signal-frame details.
//
// Everything the handler calls is async-signal-safe: write, abort,
// memcpy/memset and plain computation on the frame. No allocation, no
// stdio, no CPUID (the frame offsets are read when the host prepares it).
#include "sha512ext/sha512ext_emulator.h"

#include <cpuid.h>
#include <signal.h>
#include <ucontext.h>

#include <atomic>
#include <cstddef>
#include <cstring>

#include "cpu/cpu.h"
#include "sha512ext/site_patch.h"
#include "trap/message.h"

namespace lockstep::sha512ext {
namespace {

// ---------------------------------------------------------------------------
// The instructions, after the Operation sections of the Intel SDM, vol. 2
// (VSHA512RNDS2, VSHA512MSG1, VSHA512MSG2). q[0] is bits 63:0.

struct Ymm {
  uint64_t q[4];
};

constexpr uint64_t ror64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }
constexpr uint64_t sigma0(uint64_t x) { return ror64(x, 1) ^ ror64(x, 8) ^ (x >> 7); }
constexpr uint64_t sigma1(uint64_t x) { return ror64(x, 19) ^ ror64(x, 61) ^ (x >> 6); }
constexpr uint64_t big_sigma0(uint64_t a) { return ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39); }
constexpr uint64_t big_sigma1(uint64_t e) { return ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41); }
constexpr uint64_t ch(uint64_t e, uint64_t f, uint64_t g) { return (e & f) ^ (~e & g); }
constexpr uint64_t maj(uint64_t a, uint64_t b, uint64_t c) { return (a & b) ^ (a & c) ^ (b & c); }

// Two rounds: (c, d, g, h) from the destination, (a, b, e, f) from the first
// source, W + K of the two rounds from the low two qwords of the second.
// The destination receives the new (a, b, e, f), a in the top qword.
Ymm rnds2(const Ymm& cdgh, const Ymm& abef, const Ymm& wk) {
  uint64_t a = abef.q[3], b = abef.q[2], e = abef.q[1], f = abef.q[0];
  uint64_t c = cdgh.q[3], d = cdgh.q[2], g = cdgh.q[1], h = cdgh.q[0];
  for (int i = 0; i < 2; ++i) {
    const uint64_t t = ch(e, f, g) + big_sigma1(e) + wk.q[i] + h;
    const uint64_t a_next = t + maj(a, b, c) + big_sigma0(a);
    const uint64_t e_next = t + d;
    h = g, g = f, f = e, e = e_next;
    d = c, c = b, b = a, a = a_next;
  }
  return {{f, e, b, a}};
}

// W[i] + sigma0(W[i + 1]) for the destination's W[0..3] and W[4], the
// source's low qword.
Ymm msg1(const Ymm& w, const Ymm& next) {
  return {{w.q[0] + sigma0(w.q[1]), w.q[1] + sigma0(w.q[2]), w.q[2] + sigma0(w.q[3]),
           w.q[3] + sigma0(next.q[0])}};
}

// Adds sigma1(W[t-2]): W[14], W[15] are the source's top two qwords, and
// the two words after them are the ones this instruction makes.
Ymm msg2(const Ymm& x, const Ymm& prev) {
  Ymm r;
  r.q[0] = x.q[0] + sigma1(prev.q[2]);
  r.q[1] = x.q[1] + sigma1(prev.q[3]);
  r.q[2] = x.q[2] + sigma1(r.q[0]);
  r.q[3] = x.q[3] + sigma1(r.q[1]);
  return r;
}

// ---------------------------------------------------------------------------
// Decoding.

enum class Op : uint8_t { kRnds2 = 0xcb, kMsg1 = 0xcc, kMsg2 = 0xcd };

struct Insn {
  Op op;
  int dst, src1, src2;  // register numbers; src2 is -1 for MSG1/MSG2
};

constexpr size_t kInsnLength = 5;  // c4, two VEX bytes, opcode, ModRM

const char* op_name(Op op) {
  switch (op) {
    case Op::kRnds2: return "VSHA512RNDS2";
    case Op::kMsg1: return "VSHA512MSG1";
    case Op::kMsg2: return "VSHA512MSG2";
  }
  return "?";
}

trap::Message fault(const char* what, uint64_t rip) {
  trap::Message m;
  m.text("lockstep sha512ext emulator: ").text(what).text(" at ").hex(rip).text(": ");
  return m;
}

// Legacy prefixes and REX. Before a VEX prefix 66, F2, F3, F0 and REX make
// the hardware raise #UD; segment overrides and 67 are legal but pointless
// for the register forms. None is supported.
bool is_prefix(uint8_t b) {
  switch (b) {
    case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
    case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
      return true;
    default:
      return (b & 0xf0) == 0x40;
  }
}

// decode returns false when the bytes at `p` are not one of the three
// opcodes (the SIGILL is someone else's). It reads byte by byte and stops at
// the first mismatch, so it never reads past what the CPU itself decoded.
// The three opcodes in forms it does not perform are reported and abort.
bool decode(const uint8_t* p, Insn* insn) {
  const uint64_t rip = reinterpret_cast<uintptr_t>(p);
  size_t n = 0;
  while (n < 14 && is_prefix(p[n])) ++n;  // 15 bytes at most, the VEX ones included
  const uint8_t* v = p + n;
  // c4 [R X B m-mmmm] [W vvvv L pp] opcode ModRM, with map 0F38 and pp = F2.
  if (v[0] != 0xc4 || (v[1] & 0x1f) != 0x02 || (v[2] & 0x03) != 0x03) return false;
  if (v[3] != 0xcb && v[3] != 0xcc && v[3] != 0xcd) return false;
  const Op op = static_cast<Op>(v[3]);
  if (n != 0)
    fault(op_name(op), rip)
        .text("prefix bytes ")
        .bytes(p, n)
        .text(" before the VEX prefix are not supported")
        .die();
  const uint8_t modrm = v[4];
  const bool w = (v[2] & 0x80) != 0;
  const bool l = (v[2] & 0x04) != 0;
  const int vvvv = (~v[2] >> 3) & 15;
  if (w || !l)
    fault(op_name(op), rip)
        .text("encoding ")
        .bytes(v, 5)
        .text(" has VEX.")
        .text(w ? "W1" : "L0")
        .text(": the hardware raises #UD for it too (only VEX.256.W0 exists)")
        .die();
  if (op != Op::kRnds2 && vvvv != 0)
    fault(op_name(op), rip)
        .text("encoding ")
        .bytes(v, 5)
        .text(" has VEX.vvvv != 1111: the hardware raises #UD for it too")
        .die();
  if ((modrm >> 6) != 3)
    fault(op_name(op), rip)
        .text("encoding ")
        .bytes(v, 5)
        .text(" has a memory operand (ModRM.mod != 11): the instructions exist in register "
              "form only, the hardware raises #UD for it too")
        .die();
  insn->op = op;
  // R and B are stored inverted; X means nothing in the register forms.
  insn->dst = ((modrm >> 3) & 7) | ((v[1] & 0x80) ? 0 : 8);
  const int rm = (modrm & 7) | ((v[1] & 0x20) ? 0 : 8);
  if (op == Op::kRnds2) {
    insn->src1 = vvvv;
    insn->src2 = rm;
  } else {
    insn->src1 = rm;
    insn->src2 = -1;
  }
  return true;
}

// ---------------------------------------------------------------------------
// The signal frame. uc_mcontext.fpregs points to the kernel's XSAVE image in
// the standard (not compacted) format: the 512-byte legacy FXSAVE region
// with XMM0-15 at byte 160, the software-reserved bytes 464..511 that say an
// XSAVE area follows, the XSAVE header at 512, then the extended components
// at the offsets CPUID.(0DH, i).EBX gives (YMM_Hi128, i = 2, usually 576;
// ZMM_Hi256, i = 6). See the kernel's arch/x86/include/uapi/asm/sigcontext.h.

constexpr size_t kXmmOffset = 160;
constexpr size_t kSwBytesOffset = 464;
constexpr size_t kXsaveHeaderOffset = 512;
constexpr uint32_t kFpXstateMagic1 = 0x46505853;  // "FPXS"
constexpr uint32_t kFpXstateMagic2 = 0x46505845;  // "FPXE"
constexpr uint64_t kSse = 1u << 1, kYmm = 1u << 2, kZmmHi256 = 1u << 6;

// From CPUID when the host prepares us: where the components start; 0 = not
// enabled.
size_t g_ymm_offset = 0;
size_t g_zmm_hi256_offset = 0;

std::atomic<uint64_t> g_emulated{0};
std::atomic<uint64_t> g_upper_init{0};
std::atomic<uint64_t> g_stub_runs{0};
static_assert(std::atomic<uint64_t>::is_always_lock_free);

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Frame is the vector state of one signal frame, checked once.
class Frame {
 public:
  Frame(uint8_t* fx, const char* what, uint64_t rip) : fx_(fx) {
    if (fx_ == nullptr)
      fault(what, rip).text("the signal frame has no FPU state (uc_mcontext.fpregs is null)").die();
    const uint8_t* sw = fx_ + kSwBytesOffset;
    if (load<uint32_t>(sw) != kFpXstateMagic1)
      fault(what, rip)
          .text("the signal frame has no XSAVE area (FP_XSTATE_MAGIC1 missing); the kernel "
                "must save the AVX state")
          .die();
    const uint32_t extended_size = load<uint32_t>(sw + 4);
    const uint64_t xfeatures = load<uint64_t>(sw + 8);
    xstate_size_ = load<uint32_t>(sw + 16);
    if ((xfeatures & (kSse | kYmm)) != (kSse | kYmm) || g_ymm_offset == 0 ||
        xstate_size_ < g_ymm_offset + 256 || extended_size < xstate_size_ + 4 ||
        load<uint32_t>(fx_ + xstate_size_) != kFpXstateMagic2)
      fault(what, rip)
          .text("the signal frame's XSAVE area lacks the YMM state (xfeatures ")
          .hex(xfeatures)
          .text(", xstate_size ")
          .hex(xstate_size_)
          .text(", extended_size ")
          .hex(extended_size)
          .text(")")
          .die();
    if (load<uint64_t>(fx_ + kXsaveHeaderOffset + 8) >> 63)
      fault(what, rip).text("the signal frame's XSAVE area is in the compacted format").die();
    bv_ = load<uint64_t>(fx_ + kXsaveHeaderOffset);
    zmm_hi256_ = g_zmm_hi256_offset != 0 && (xfeatures & kZmmHi256) &&
                 xstate_size_ >= g_zmm_hi256_offset + 512;
  }

  // A clear XSTATE_BV bit means the component is in its initial state, all
  // zeros, whatever the buffer holds.
  bool upper_init() const { return !(bv_ & kYmm); }

  Ymm read(int r) const {
    Ymm y = {};
    if (bv_ & kSse) std::memcpy(&y.q[0], fx_ + kXmmOffset + 16 * r, 16);
    if (bv_ & kYmm) std::memcpy(&y.q[2], fx_ + g_ymm_offset + 16 * r, 16);
    return y;
  }

  // write sets bits 255:0 of register r and zeroes the bits above (VEX.256).
  void write(int r, const Ymm& y) {
    // Setting a component's bit makes XRSTOR load all of it from the
    // buffer, where the kernel wrote nothing for a component in its initial
    // state: the other registers' parts must be made the zeros they are.
    if (!(bv_ & kSse)) {
      std::memset(fx_ + kXmmOffset, 0, 16 * 16);
      set_bv(kSse);
    }
    if (!(bv_ & kYmm)) {
      std::memset(fx_ + g_ymm_offset, 0, 16 * 16);
      set_bv(kYmm);
    }
    std::memcpy(fx_ + kXmmOffset + 16 * r, &y.q[0], 16);
    std::memcpy(fx_ + g_ymm_offset + 16 * r, &y.q[2], 16);
    // Bits 511:256. A clear bit already means zero, for every register.
    if (zmm_hi256_ && (bv_ & kZmmHi256)) std::memset(fx_ + g_zmm_hi256_offset + 32 * r, 0, 32);
  }

 private:
  void set_bv(uint64_t bit) {
    bv_ |= bit;
    store<uint64_t>(fx_ + kXsaveHeaderOffset, bv_);
  }

  uint8_t* fx_;
  uint32_t xstate_size_ = 0;
  uint64_t bv_ = 0;
  bool zmm_hi256_ = false;
};

Ymm compute(Op op, const Ymm& dst, const Ymm& src1, const Ymm& src2) {
  switch (op) {
    case Op::kRnds2: return rnds2(dst, src1, src2);
    case Op::kMsg1: return msg1(dst, src1);
    case Op::kMsg2: return msg2(dst, src1);
  }
  return dst;
}

// Called by a patched site's stub (site_patch.h) with the operands in
// `slots`; the entry routine has saved every register state around it.
void stub_compute(uint8_t* slots) {
  Ymm r[3];
  std::memcpy(r, slots, sizeof r);
  const Ymm out = compute(static_cast<Op>(slots[96]), r[0], r[1], r[2]);
  std::memcpy(slots, &out, sizeof out);
  g_emulated.fetch_add(1, std::memory_order_relaxed);
  g_stub_runs.fetch_add(1, std::memory_order_relaxed);
}

void execute(const Insn& insn, ucontext_t* uc) {
  const auto rip = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]);
  Frame frame(reinterpret_cast<uint8_t*>(uc->uc_mcontext.fpregs), op_name(insn.op), rip);
  if (frame.upper_init()) g_upper_init.fetch_add(1, std::memory_order_relaxed);
  // Every source is read before the destination is written: they may be
  // the same register.
  const Ymm dst = frame.read(insn.dst);
  const Ymm src1 = frame.read(insn.src1);
  const Ymm src2 = insn.src2 >= 0 ? frame.read(insn.src2) : Ymm{};
  frame.write(insn.dst, compute(insn.op, dst, src1, src2));
}

// ---------------------------------------------------------------------------
// The host's callbacks.

// handle performs one of the three instructions at RIP from the frame, or
// resumes a patched site in its stub; anything else is not ours.
bool handle(siginfo_t*, ucontext_t* uc) {
  const auto rip = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  Insn insn;
  const bool ours = decode(reinterpret_cast<const uint8_t*>(rip), &insn);
  // A site another thread has patched, or is patching, is run by its stub.
  // The table is read after the bytes: a site enters it before its first
  // byte changes, so bytes read mid-patch are never acted on.
  std::atomic_thread_fence(std::memory_order_acquire);
  if (const uintptr_t stub = site_patch::stub_for(rip)) {
    uc->uc_mcontext.gregs[REG_RIP] = static_cast<greg_t>(stub);
    return true;
  }
  if (!ours) return false;
  // The first run at a site is emulated from the frame, so that path stays
  // exercised; later runs take the stub.
  execute(insn, uc);
  uc->uc_mcontext.gregs[REG_RIP] += kInsnLength;
  g_emulated.fetch_add(1, std::memory_order_relaxed);
  site_patch::patch(rip, static_cast<uint8_t>(insn.op), insn.dst, insn.src1,
                    insn.src2 >= 0 ? insn.src2 : insn.src1);
  return true;
}

// frame_layout reads where the signal frame keeps the YMM upper halves (and
// ZMM_Hi256), and whether the OS saves them at all (XCR0).
bool frame_layout() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) return false;  // OSXSAVE
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  const uint64_t xcr0 = (uint64_t{hi} << 32) | lo;
  if ((xcr0 & (kSse | kYmm)) != (kSse | kYmm)) return false;
  __cpuid_count(0xd, 2, a, b, c, d);
  if (a != 256 || b < kXsaveHeaderOffset + 64) return false;
  g_ymm_offset = b;
  if (xcr0 & kZmmHi256) {
    __cpuid_count(0xd, 6, a, b, c, d);
    if (a == 512 && b >= kXsaveHeaderOffset + 64) g_zmm_hi256_offset = b;
  }
  return true;
}

// prepare: the frame layout, and the stubs' callee. Once, by the host.
const char* prepare() {
  if (const char* bad = site_patch::switch_error()) return bad;
  if (!frame_layout()) return "the OS does not save the AVX (YMM) state in signal frames";
  site_patch::prepare(stub_compute);
  return nullptr;
}

}  // namespace

constinit const trap::Emulator kTrapEmulator = {
    .name = "sha512ext",
    .title = "SHA512",
    .provides = {cpu::Feature::kSha512},
    .prepare = prepare,
    .handle = handle,
    // A block is 72 instructions, each a trap until its site is patched.
    .fuzz_runs = 2000,
    // 2^31 bytes are 1.2 billion emulated instructions (minutes); 16 MiB
    // are 9.4 million, a few seconds.
    .huge_call_bytes = (size_t{1} << 24) + 131,
    // Arrow Lake-S (Core Ultra 200S): family 6 model 0xc6, the first desktop
    // part with SHA512 (no AVX-512). The stepping is not modelled.
    .identity = {.vendor = "GenuineIntel", .family = 6, .model = 0xc6, .stepping = 0,
                 .brand = "Intel Core Ultra 200S, Arrow Lake (modelled by the SHA512 trap emulator)"},
};

uint64_t emulated_instructions() { return g_emulated.load(std::memory_order_relaxed); }

uint64_t upper_init_frames() { return g_upper_init.load(std::memory_order_relaxed); }

uint64_t stub_instructions() { return g_stub_runs.load(std::memory_order_relaxed); }

uint64_t patched_sites() { return site_patch::patched_sites(); }

}  // namespace lockstep::sha512ext
