// ResidueWatch: while one is alive on a thread, every backend function the
// front ends call (built-in or module, through invoke()) runs on the
// watch's own patterned stack (residue/stack.h), and after each call the
// watch's `inspect` sees that stack and the vector registers as the callee
// left them. The residue check searches them for secrets.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>

#include "abi/abi_check.h"
#include "residue/stack.h"

namespace lockstep {

class ResidueWatch;
namespace detail {
// Inline, so the test in every backend call is one thread-local load.
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

  // call runs fn(args...) on the stack, then inspects it.
  template <class R, class... Args>
  R call(std::string_view function, R (*fn)(Args...), Args... args) {
    static_assert(sizeof...(Args) <= residue::kMaxArgs);
    const std::uintptr_t words[sizeof...(Args) + 1] = {abi::detail::to_word<Args>(args)...};
    const std::uintptr_t result =
        call_raw(function, reinterpret_cast<residue::RawFunction>(fn), {words, sizeof...(Args)});
    if constexpr (!std::is_void_v<R>) return abi::detail::from_word<R>(result);
  }

 private:
  std::uintptr_t call_raw(std::string_view function, residue::RawFunction fn, std::span<const std::uintptr_t> args);

  ResidueWatch* outer_;
  Inspect inspect_;
  std::unique_ptr<residue::Stack> stack_;
  size_t calls_ = 0;
};

}  // namespace lockstep
