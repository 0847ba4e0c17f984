#include "guarded_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

#include "crash/crash_report.h"

namespace lockstep::conformance {

size_t GuardedBuffer::page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

GuardedBuffer::GuardedBuffer(size_t len, const char* name) {
  const size_t page = page_size();
  capacity_ = (len + page - 1) / page * page;
  if (capacity_ == 0) capacity_ = page;
  map_len_ = capacity_ + 2 * page;
  void* p = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
  map_ = static_cast<uint8_t*>(p);
  begin_ = map_ + page;
  if (mprotect(map_, page, PROT_NONE) != 0 || mprotect(end(), page, PROT_NONE) != 0) {
    const int err = errno;
    munmap(map_, map_len_);
    throw std::system_error(err, std::generic_category(), "mprotect");
  }
  slot_ = crash::register_guarded(name, begin_, end(), page);
}

GuardedBuffer::~GuardedBuffer() {
  crash::unregister_guarded(slot_);
  munmap(map_, map_len_);
}

uint8_t* GuardedBuffer::head(size_t n) const {
  if (n > capacity_) throw std::out_of_range("GuardedBuffer::head: " + std::to_string(n));
  return begin_;
}

uint8_t* GuardedBuffer::tail(size_t n) const {
  if (n > capacity_) throw std::out_of_range("GuardedBuffer::tail: " + std::to_string(n));
  return end() - n;
}

uint8_t* GuardedBuffer::tail_aligned(size_t n, size_t align) const {
  uint8_t* p = tail(n);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  return p - (a % align);
}

}  // namespace lockstep::conformance
