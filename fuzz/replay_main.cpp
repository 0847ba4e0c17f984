// The replay-and-random driver: runs a harness's LLVMFuzzerTestOneInput
// without libFuzzer, so GCC builds and emulated (QEMU) builds execute the
// same programs: first every file of the given corpora, then N random inputs
// from a seed. Same decoder, same verdict: a mismatch aborts with the same
// report as under libFuzzer.
#include <fcntl.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define LOCKSTEP_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LOCKSTEP_SANITIZED 1
#endif
#ifndef LOCKSTEP_SANITIZED
#define LOCKSTEP_SANITIZED 0
#endif
#if LOCKSTEP_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "crash/crash_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// A harness may define it, as libFuzzer allows; it runs before any input.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

namespace fs = std::filesystem;

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--runs N] [--seconds T] [--seed S] [--max-len L] [--save-failure FILE] [PATH...]\n"
               "  PATH           a corpus directory or an input file, replayed first\n"
               "  --runs         random inputs after the replay (default 0)\n"
               "  --seconds      keep running random inputs for T seconds (after --runs)\n"
               "  --seed         seed of the random inputs (default 1)\n"
               "  --max-len      longest random input in bytes (default 4096)\n"
               "  --save-failure write the input that aborted to FILE, to replay it later\n",
               argv0);
  return 2;
}

// The input being run: named, and written out, if the harness aborts.
const char* g_failure_path = nullptr;
const uint8_t* g_current = nullptr;
size_t g_current_size = 0;
const char* g_current_file = nullptr;  // null: a random input
unsigned long long g_random_index = 0, g_seed = 0;

void write_str(const char* s) { (void)!write(2, s, std::strlen(s)); }

void write_num(unsigned long long v) {
  char buf[24];
  int i = sizeof buf;
  do {
    buf[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  (void)!write(2, buf + i, sizeof buf - static_cast<size_t>(i));
}

// Async-signal-safe: says which input died, then dies the same way.
void on_fatal_signal(int sig) {
  write_str("fuzz replay: the failing input was ");
  if (g_current_file) {
    write_str(g_current_file);
  } else {
    write_str("random input #");
    write_num(g_random_index);
    write_str(" of seed ");
    write_num(g_seed);
  }
  write_str("\n");
  if (g_failure_path && g_current) {
    const int fd = open(g_failure_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      size_t off = 0;
      while (off < g_current_size) {
        const ssize_t n = write(fd, g_current + off, g_current_size - off);
        if (n <= 0) break;
        off += static_cast<size_t>(n);
      }
      close(fd);
      write_str("fuzz replay: saved it to ");
      write_str(g_failure_path);
      write_str("\n");
    }
  }
  if (sig == 0) return;  // a sanitizer's death callback: it exits by itself
  signal(sig, SIG_DFL);
  raise(sig);
}

void run_one(const uint8_t* data, size_t size) {
  g_current = data;
  g_current_size = size;
  LLVMFuzzerTestOneInput(data, size);
}

bool parse_size(const char* s, unsigned long long& out) {
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(s, &end, 10);
  return errno == 0 && end && *end == '\0' && end != s;
}

std::vector<uint8_t> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long runs = 0, seconds = 0, seed = 1, max_len = 4096;
  std::vector<fs::path> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    unsigned long long* target = a == "--runs"      ? &runs
                                 : a == "--seconds" ? &seconds
                                 : a == "--seed"    ? &seed
                                 : a == "--max-len" ? &max_len
                                                    : nullptr;
    if (target) {
      if (i + 1 >= argc || !parse_size(argv[++i], *target)) return usage(argv[0]);
    } else if (a == "--save-failure") {
      if (i + 1 >= argc) return usage(argv[0]);
      g_failure_path = argv[++i];
    } else if (a.starts_with("-")) {
      return usage(argv[0]);
    } else {
      paths.emplace_back(a);
    }
  }

  std::vector<fs::path> inputs;
  for (const fs::path& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else if (fs::is_regular_file(p, ec)) {
      inputs.push_back(p);
    } else {
      std::fprintf(stderr, "%s: %s: no such file or directory\n", argv[0], p.c_str());
      return 1;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  signal(SIGABRT, on_fatal_signal);
#if LOCKSTEP_SANITIZED
  // Sanitizers report memory errors themselves and exit without a signal.
  __sanitizer_set_death_callback([] { on_fatal_signal(0); });
#else
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) signal(sig, on_fatal_signal);
#endif
  // Installed after the handlers above, so it speaks first (the backend and
  // the program that faulted), then hands the signal to them.
  lockstep::crash::install(fs::path(argv[0]).filename().c_str());
  for (const fs::path& p : inputs) {
    const std::vector<uint8_t> data = read_file(p);
    g_current_file = p.c_str();
    run_one(data.data(), data.size());
  }
  g_current_file = nullptr;
  g_seed = seed;

  std::mt19937_64 rng(seed);
  std::vector<uint8_t> buf;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  unsigned long long done = 0;
  for (;; ++done) {
    if (done >= runs && (seconds == 0 || std::chrono::steady_clock::now() >= deadline)) break;
    // Short inputs are the common case, long ones the thorough one.
    const size_t len = (rng() & 3) ? rng() % std::min<unsigned long long>(max_len + 1, 300)
                                   : rng() % (max_len + 1);
    buf.resize(len);
    for (uint8_t& b : buf) b = static_cast<uint8_t>(rng());
    g_random_index = done + 1;
    run_one(buf.data(), buf.size());
  }
  std::printf("%s: replayed %zu input(s), ran %llu random input(s) from seed %llu: every backend agrees\n",
              fs::path(argv[0]).filename().c_str(), inputs.size(), done, seed);
  return 0;
}
