// The PHE trap emulator: see phe_emulator.h for the model.
//
// Everything the handler calls is async-signal-safe: sigaction, raise,
// write, abort, and the OpenSSL compression functions (plain computation on
// caller-supplied memory). No allocation, no stdio.
#include "phe/phe_emulator.h"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cpu/cpu.h"
#include "phe/compress.h"

namespace lockstep::phe {
namespace {

enum class Op { kNone, kXsha1, kXsha256, kXsha512 };

constexpr uint32_t kBlockMode = 0xffffffffu;  // EAX = -1

// Lock-free, so bumping it in the handler is async-signal-safe.
std::atomic<uint64_t> g_emulated{0};
static_assert(std::atomic<uint64_t>::is_always_lock_free);

// The disposition install() replaced, put back on a SIGILL that is not ours.
struct sigaction g_previous;

// Message builds one line in a fixed buffer and writes it with write(2):
// snprintf and stdio are not async-signal-safe.
class Message {
 public:
  Message& text(const char* s) {
    while (*s && len_ < sizeof buf_) buf_[len_++] = *s++;
    return *this;
  }
  Message& hex(uint64_t v) {
    char digits[16];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v);
    text("0x");
    while (n && len_ < sizeof buf_) buf_[len_++] = digits[--n];
    return *this;
  }
  [[noreturn]] void die() {
    text("\n");
    size_t done = 0;
    while (done < len_) {
      const ssize_t w = write(STDERR_FILENO, buf_ + done, len_ - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    std::abort();
  }

 private:
  char buf_[320];
  size_t len_ = 0;
};

const char* op_name(Op op) {
  switch (op) {
    case Op::kXsha1: return "REP XSHA1";
    case Op::kXsha256: return "REP XSHA256";
    case Op::kXsha512: return "REP XSHA512";
    case Op::kNone: break;
  }
  return "?";
}

Message fault(Op op, uint64_t rip) {
  Message m;
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
  r[REG_RSI] = static_cast<greg_t>(reinterpret_cast<uintptr_t>(src) + consumed);
  r[REG_RCX] = 0;
  r[REG_RAX] = static_cast<greg_t>(kRaxPoison);
}

void on_sigill(int, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  greg_t* r = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  // si_code <= 0: sent by kill/raise, so RIP is not a faulting instruction.
  const bool from_cpu = info->si_code > 0;
  const Op op = from_cpu ? decode(reinterpret_cast<const uint8_t*>(r[REG_RIP])) : Op::kNone;
  if (op == Op::kNone) {
    // Not ours. A previous handler that is a function (another trap
    // emulator, say) gets it, and stays in place for the next one.
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction != nullptr) {
      g_previous.sa_sigaction(SIGILL, info, context);
      errno = saved_errno;
      return;
    }
    if (!(g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_handler != SIG_DFL &&
        g_previous.sa_handler != SIG_IGN) {
      g_previous.sa_handler(SIGILL);
      errno = saved_errno;
      return;
    }
    // Otherwise put the old disposition back. A CPU fault recurs when the
    // instruction is retried on return; a sent signal is sent again (SIGILL
    // is blocked here, so it arrives on return).
    sigaction(SIGILL, &g_previous, nullptr);
    if (!from_cpu) raise(SIGILL);
    errno = saved_errno;
    return;
  }
  execute(op, r);
  r[REG_RIP] += 4;
  g_emulated.fetch_add(1, std::memory_order_relaxed);
  errno = saved_errno;
}

bool is_ours(const struct sigaction& sa) {
  return (sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == on_sigill;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Runs before main; cpu::declare_emulated must precede the first dispatch.
const bool g_from_environment = [] {
  const char* list = std::getenv("LOCKSTEP_EMULATE");
  if (list == nullptr || !requests_phe(list)) return false;
  if (!install()) {
    std::fprintf(stderr, "lockstep phe emulator: cannot install the SIGILL handler: %s\n",
                 std::strerror(errno));
    std::exit(2);
  }
  cpu::declare_emulated({cpu::Feature::kPhe, cpu::Feature::kPhe2}, kEmulatorName);
  return true;
}();

}  // namespace

bool install() {
  struct sigaction current;
  if (sigaction(SIGILL, nullptr, &current) != 0) return false;
  if (is_ours(current)) return true;  // keep the disposition saved the first time
  g_previous = current;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigill;
  sa.sa_flags = SA_SIGINFO;
  // An emulated instruction is atomic, as a real one is: other signals wait
  // until it is done. Otherwise a handler that interrupts the emulation and
  // issues PHE itself would fault with SIGILL blocked, and the kernel kills
  // the process. The fault signals stay open, so a bad RSI or RDI still
  // reaches whoever handles SIGSEGV (a sanitizer, for one).
  sigfillset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGTRAP}) sigdelset(&sa.sa_mask, sig);
  return sigaction(SIGILL, &sa, nullptr) == 0;
}

bool installed() {
  struct sigaction current;
  return sigaction(SIGILL, nullptr, &current) == 0 && is_ours(current);
}

bool installed_by_environment() { return g_from_environment; }

uint64_t emulated_instructions() { return g_emulated.load(std::memory_order_relaxed); }

bool requests_phe(std::string_view list) {
  for (;;) {
    const size_t comma = list.find(',');
    if (trim(list.substr(0, comma)) == "phe") return true;
    if (comma == std::string_view::npos) return false;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace lockstep::phe
