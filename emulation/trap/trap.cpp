// The trap host: see trap.h.
//
// Everything the handler calls is async-signal-safe: sigaction, raise, the
// emulators' callbacks (which promise it) and atomics that are lock-free.
#include "trap/trap.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace lockstep::trap {
namespace {

// Bit i stands for emulators()[i]. Lock-free, so the handler may read them.
std::atomic<uint32_t> g_enabled{0};
std::atomic<uint32_t> g_prepared{0};
static_assert(std::atomic<uint32_t>::is_always_lock_free);

// The disposition install() replaced, for SIGILLs that are not ours.
struct sigaction g_previous;

int index_of(const Emulator& e) {
  const auto list = emulators();
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i] == &e) return static_cast<int>(i);
  return -1;
}

// hand_on gives a foreign SIGILL to whoever had it before: a handler
// function is called (a sanitizer's, a test's) and ours stays in place for
// the next trap; SIG_DFL or SIG_IGN is put back, and then a CPU fault
// recurs when the instruction is retried and a sent signal is sent again
// (SIGILL is blocked here, so it arrives on return).
void hand_on(int sig, siginfo_t* info, void* context, bool from_cpu) {
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) {
      g_previous.sa_sigaction(sig, info, context);
      return;
    }
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
    return;
  }
  sigaction(SIGILL, &g_previous, nullptr);
  if (!from_cpu) raise(SIGILL);
}

void on_sigill(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  // si_code <= 0: sent by kill/raise, so RIP is not a faulting instruction.
  const bool from_cpu = info->si_code > 0;
  bool handled = false;
  if (from_cpu) {
    const uint32_t on = g_enabled.load(std::memory_order_acquire);
    const auto list = emulators();
    for (size_t i = 0; i < list.size() && !handled; ++i)
      handled = ((on >> i) & 1) && list[i]->handle(info, static_cast<ucontext_t*>(context));
  }
  if (!handled) hand_on(sig, info, context, from_cpu);
  errno = saved_errno;
}

bool is_ours(const struct sigaction& sa) {
  return (sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == on_sigill;
}

bool install_handler() {
  struct sigaction current;
  if (sigaction(SIGILL, nullptr, &current) != 0) return false;
  if (is_ours(current)) return true;  // keep the disposition saved the first time
  g_previous = current;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigill;
  // On the thread's alternate stack where it has one: the emulation's frames
  // (every register, secrets included) stay off the stack of the code that
  // trapped, which the residue check reads as that code's own.
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  // An emulated instruction is atomic, as a real one is: other signals wait
  // until it is done. Otherwise a handler that interrupts the emulation and
  // issues the instruction itself would fault with SIGILL blocked, and the
  // kernel kills the process. The fault signals stay open, so a bad operand
  // address still reaches whoever handles SIGSEGV (a sanitizer, for one).
  sigfillset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGTRAP}) sigdelset(&sa.sa_mask, sig);
  return sigaction(SIGILL, &sa, nullptr) == 0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Runs before main: cpu::declare_emulated must precede the first dispatch
// (impl/cpu/cpu.h). The list is constant-initialized, so it is complete
// here whatever order the static initializers run in.
const uint32_t g_from_environment = [] {
  const char* list = std::getenv("LOCKSTEP_EMULATE");
  if (list == nullptr) return uint32_t{0};
  const Request request = parse(list);
  if (!request.error.empty()) {
    std::fprintf(stderr, "lockstep: LOCKSTEP_EMULATE: %s\n", request.error.c_str());
    std::exit(2);
  }
  uint32_t bits = 0;
  for (const Emulator* e : request.enabled) {
    std::string error;
    if (!install(*e, &error)) {
      std::fprintf(stderr, "lockstep: LOCKSTEP_EMULATE=%s: cannot install the %.*s trap emulator: %s\n",
                   list, static_cast<int>(e->title.size()), e->title.data(), error.c_str());
      std::exit(2);
    }
    cpu::declare_emulated(e->provides, id(*e));
    if (!e->identity.vendor.empty()) cpu::declare_identity(e->identity, id(*e));
    bits |= uint32_t{1} << index_of(*e);
  }
  return bits;
}();

}  // namespace

const Emulator* find(std::string_view name) {
  for (const Emulator* e : emulators())
    if (e->name == name) return e;
  return nullptr;
}

std::string id(const Emulator& e) { return std::string(e.name) + "-trap"; }

std::string known_names() {
  std::string out;
  for (const Emulator* e : emulators()) {
    if (!out.empty()) out += ", ";
    out += e->name;
  }
  return out.empty() ? "none in this build" : out;
}

Request parse(std::string_view list) {
  Request r;
  uint32_t seen = 0;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view item = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (item.empty()) continue;
    const Emulator* e = find(item);
    if (e == nullptr) {
      r.enabled.clear();
      r.error = "unknown emulator '" + std::string(item) + "' (known: " + known_names() + ")";
      return r;
    }
    seen |= uint32_t{1} << index_of(*e);
  }
  const auto all = emulators();
  for (size_t i = 0; i < all.size(); ++i)
    if ((seen >> i) & 1) r.enabled.push_back(all[i]);
  return r;
}

bool install(const Emulator& e, std::string* error) {
  const int i = index_of(e);
  const auto fail = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (i < 0) return fail("'" + std::string(e.name) + "' is not a registered trap emulator");
  const uint32_t bit = uint32_t{1} << i;
  if (!(g_prepared.load() & bit)) {
    if (e.prepare != nullptr) {
      if (const char* why = e.prepare()) return fail(why);
    }
    g_prepared.fetch_or(bit);
  }
  // Enabled before the handler is in place: a trap right after is ours.
  g_enabled.fetch_or(bit, std::memory_order_release);
  errno = 0;
  if (!install_handler()) return fail(std::string("sigaction: ") + std::strerror(errno));
  return true;
}

bool installed() {
  struct sigaction current;
  return sigaction(SIGILL, nullptr, &current) == 0 && is_ours(current);
}

bool enabled(const Emulator& e) {
  const int i = index_of(e);
  return i >= 0 && ((g_enabled.load() >> i) & 1);
}

bool installed_by_environment(const Emulator& e) {
  const int i = index_of(e);
  return i >= 0 && ((g_from_environment >> i) & 1);
}

}  // namespace lockstep::trap
