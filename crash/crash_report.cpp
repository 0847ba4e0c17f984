#include "crash_report.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace lockstep::crash {
namespace {

// The check's name and the case notes, each a line ("check: ...", then one
// "case: ..." per note). Fixed storage: the handler only reads it.
constexpr size_t kTextSize = 4096;
char g_check[512];
char g_case[kTextSize];
size_t g_case_len = 0;
// A copy: the handler may run after the caller's string is gone.
char g_program[256] = "lockstep";

struct Region {
  std::atomic<bool> used{false};
  const char* name = nullptr;
  uintptr_t begin = 0, end = 0, page = 0;
};
constexpr int kRegions = 64;
Region g_regions[kRegions];

struct Saved {
  int sig;
  struct sigaction old;
  bool installed;
};
Saved g_saved[] = {{SIGSEGV, {}, false}, {SIGBUS, {}, false}, {SIGILL, {}, false}, {SIGFPE, {}, false}, {SIGABRT, {}, false}};

// A writer over a fixed buffer; truncates quietly.
struct Out {
  char* p;
  size_t cap, len = 0;
  void str(const char* s) {
    while (*s && len < cap) p[len++] = *s++;
  }
  void num(uintptr_t v, unsigned base = 10) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = "0123456789abcdef"[v % base];
      v /= base;
    } while (v);
    if (base == 16) str("0x");
    while (n > 0 && len < cap) p[len++] = digits[--n];
  }
};

size_t copy(char* dst, size_t cap, std::string_view s) {
  const size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
  return n;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
  }
  return "signal";
}

void on_fault(int sig, siginfo_t* info, void*) {
  char buf[kTextSize + 1024];
  Out o{buf, sizeof buf};
  o.str(g_program);
  o.str(": ");
  o.str(signal_name(sig));
  if (info->si_code > 0) {  // a fault, with an address (abort() has none)
    o.str(" at address ");
    o.num(reinterpret_cast<uintptr_t>(info->si_addr), 16);
  }
  o.str(g_check[0] ? " during " : "");
  o.str(g_check);
  o.str("\n");
  if (g_case_len) {
    o.str(g_program);
    o.str(": the case: ");
    o.str(g_case);
    o.str("\n");
  }
  char where[256];
  if (info->si_code > 0 && describe_address(reinterpret_cast<uintptr_t>(info->si_addr), where, sizeof where)) {
    o.str(g_program);
    o.str(": the address is ");
    o.str(where);
    o.str("\n");
  }
  (void)!write(2, buf, o.len);
  // Hand the signal on: the previous handler (a sanitizer's report), or the
  // default action, when the faulting instruction runs again on return.
  for (Saved& s : g_saved)
    if (s.sig == sig && s.installed) sigaction(sig, &s.old, nullptr);
  if (info->si_code <= 0) raise(sig);  // sent, not a fault: it would not come again
}

}  // namespace

void install(const char* program) {
  std::snprintf(g_program, sizeof g_program, "%s", program);
  static char stack[64 * 1024];  // a stack overflow must still be reported
  stack_t ss{};
  ss.ss_sp = stack;
  ss.ss_size = sizeof stack;
  sigaltstack(&ss, nullptr);
  for (Saved& s : g_saved) {
    if (s.installed) continue;
    sigaction(s.sig, nullptr, &s.old);
    if (s.sig == SIGILL && s.old.sa_handler != SIG_DFL) continue;  // a trap emulator's
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    s.installed = sigaction(s.sig, &sa, nullptr) == 0;
  }
}

void set_check(std::string_view check) {
  copy(g_check, sizeof g_check, check);
  g_case_len = 0;
  g_case[0] = '\0';
}

CaseNote::CaseNote(std::string_view text) : restore_(g_case_len) {
  const std::string_view sep = g_case_len ? "; " : "";
  g_case_len += copy(g_case + g_case_len, kTextSize - g_case_len, sep);
  g_case_len += copy(g_case + g_case_len, kTextSize - g_case_len, text);
}

CaseNote::~CaseNote() {
  g_case_len = restore_;
  g_case[g_case_len] = '\0';
}

int register_guarded(const char* name, const uint8_t* begin, const uint8_t* end, size_t page) {
  for (int i = 0; i < kRegions; ++i) {
    bool expected = false;
    Region& r = g_regions[i];
    if (!r.used.load() && r.used.compare_exchange_strong(expected, true)) {
      r.name = name;
      r.begin = reinterpret_cast<uintptr_t>(begin);
      r.end = reinterpret_cast<uintptr_t>(end);
      r.page = page;
      return i;
    }
  }
  return -1;  // full: faults there go undescribed, nothing worse
}

void unregister_guarded(int slot) {
  if (slot >= 0 && slot < kRegions) g_regions[slot].used.store(false);
}

size_t describe_address(uintptr_t addr, char* out, size_t cap) {
  Out o{out, cap - 1};
  for (const Region& r : g_regions) {
    if (!r.used.load()) continue;
    const bool after = addr >= r.end && addr < r.end + r.page;
    if (!after && !(addr < r.begin && addr >= r.begin - r.page)) continue;
    o.str("offset ");
    if (after) {
      o.num(addr - r.begin);
    } else {
      o.str("-");
      o.num(r.begin - addr);
    }
    o.str(" of guarded buffer '");
    o.str(r.name);
    o.str("' (");
    o.num(r.end - r.begin);
    o.str(" usable bytes), in its ");
    o.str(after ? "trailing" : "leading");
    o.str(" guard page");
    break;
  }
  out[o.len] = '\0';
  return o.len;
}

}  // namespace lockstep::crash
