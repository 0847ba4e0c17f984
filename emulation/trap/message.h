// A one-line report from inside a SIGILL handler, for the trap emulators'
// "this form is not supported" aborts.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace lockstep::trap {

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
  // bytes writes `n` bytes as space-separated hex pairs: "c4 e2 7f".
  Message& bytes(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const char b[4] = {"0123456789abcdef"[p[i] >> 4], "0123456789abcdef"[p[i] & 15],
                         i + 1 < n ? ' ' : '\0', '\0'};
      text(b);
    }
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
  char buf_[400];
  size_t len_ = 0;
};

}  // namespace lockstep::trap
