// GuardedBuffer: memory between two unmapped guard pages, so that a read or
// write one byte outside it faults at once, in assembly code too (the
// kernel's alloc_guarded_buf, with a guard on both sides).
#pragma once

#include <cstddef>
#include <cstdint>

namespace lockstep::conformance {

class GuardedBuffer {
 public:
  // Maps at least `len` bytes (rounded up to whole pages) between a leading
  // and a trailing PROT_NONE page. The bytes start out zero. Throws
  // std::system_error when the kernel refuses the mapping.
  // `name` ("src", "digest") is what the fault report calls it; it must
  // outlive the buffer (a string literal).
  explicit GuardedBuffer(size_t len, const char* name = "unnamed");
  ~GuardedBuffer();
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  // begin is the first usable byte, right after the leading guard.
  uint8_t* begin() const { return begin_; }
  // end is the first byte of the trailing guard.
  uint8_t* end() const { return begin_ + capacity_; }
  size_t capacity() const { return capacity_; }

  // head(n) is n usable bytes starting right after the leading guard;
  // tail(n) is n bytes ending right at the trailing guard.
  uint8_t* head(size_t n) const;
  uint8_t* tail(size_t n) const;

  // tail_aligned(n, align) is the highest address p with p % align == 0 and
  // p + n <= end(): an object of size n placed as close to the guard as its
  // alignment allows (flush when n is a multiple of align).
  uint8_t* tail_aligned(size_t n, size_t align) const;

  static size_t page_size();

 private:
  uint8_t* map_ = nullptr;  // the whole mapping, guards included
  size_t map_len_ = 0;
  uint8_t* begin_ = nullptr;
  size_t capacity_ = 0;
  int slot_ = -1;  // its registration with the fault report
};

}  // namespace lockstep::conformance
