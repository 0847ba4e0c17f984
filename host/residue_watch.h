// ResidueWatch: while one is alive on a thread, every backend function the
// front ends call (built-in or module, through invoke(): the watch is the
// thread's interceptor, impl/intercept.h) runs on the watch's own
// patterned stack (residue/stack.h), and after each call the
// watch's `inspect` sees that stack and the vector registers as the callee
// left them. The residue check searches them for secrets.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>

#include "intercept.h"
#include "residue/stack.h"

namespace lockstep {

class ResidueWatch;
namespace detail {
// The watch alive on this thread, or null.
inline thread_local ResidueWatch* t_residue_watch = nullptr;
}  // namespace detail

class ResidueWatch {
 public:
  using Inspect = std::function<void(std::string_view function, const residue::Stack& stack)>;
  explicit ResidueWatch(Inspect inspect);
  ~ResidueWatch();
  ResidueWatch(const ResidueWatch&) = delete;
  ResidueWatch& operator=(const ResidueWatch&) = delete;

  static ResidueWatch* active() { return detail::t_residue_watch; }
  size_t calls() const { return calls_; }

 private:
  // intercept hands the call to the thread's watch.
  static std::uintptr_t intercept(const Call& call);
  // call runs fn(args...) on the stack, then inspects it.
  std::uintptr_t call(std::string_view function, RawFunction fn, std::span<const std::uintptr_t> args);

  ResidueWatch* outer_;
  Interceptor outer_interceptor_;
  Inspect inspect_;
  std::unique_ptr<residue::Stack> stack_;
  size_t calls_ = 0;
};

}  // namespace lockstep
