// How a backend function may be called other than directly. The front ends
// call every backend function through invoke() (backend.h); impl itself
// only ever calls it straight. Whoever must see or guard a call (the module
// host: the residue watch, the ABI audit, the trampoline around code
// lockstep did not write) installs an Interceptor, and invoke() hands it the
// call as words, in the order of the arguments.
//
// Nothing installed costs one thread-local load and a branch per call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "call_words.h"  // abi/: one register's worth of a value, both ways

namespace lockstep {

struct Backend;

// Any backend function, as an interceptor takes it.
using RawFunction = void (*)();

// Call is one call of a backend function, untyped: integer and pointer
// arguments only, at most kMaxArgs, each one word (what every backend
// function of module.h takes).
struct Call {
  static constexpr std::size_t kMaxArgs = 6;
  const Backend& backend;
  std::string_view function;  // "blocks", "finup_2x", "crypt", "hchacha"
  RawFunction fn;
  std::span<const std::uintptr_t> args;
  // direct makes the call as the compiler would, typed, and returns its
  // result as a word (0 for void): for an interceptor that lets a call
  // through unchanged.
  std::uintptr_t (*direct)(RawFunction fn, std::span<const std::uintptr_t> args);
};

// An Interceptor makes the call its own way and returns the function's
// result in the full integer return register, as the ABI leaves it.
using Interceptor = std::uintptr_t (*)(const Call& call);

namespace detail {
// Installed for the current thread, or null (set_thread_interceptor).
inline thread_local Interceptor t_interceptor = nullptr;
}  // namespace detail

// set_thread_interceptor installs `i` for this thread (null: none) and
// returns the one it replaces, for the caller to put back.
inline Interceptor set_thread_interceptor(Interceptor i) { return std::exchange(detail::t_interceptor, i); }

namespace detail {

using abi::words::from_word;
using abi::words::is_word;
using abi::words::to_word;

template <class R, class... Args, std::size_t... I>
std::uintptr_t call_direct(RawFunction raw, std::span<const std::uintptr_t> args, std::index_sequence<I...>) {
  const auto fn = reinterpret_cast<R (*)(Args...)>(raw);
  if constexpr (std::is_void_v<R>) {
    fn(from_word<Args>(args[I])...);
    return 0;
  } else {
    return to_word<R>(fn(from_word<Args>(args[I])...));
  }
}

template <class R, class... Args>
std::uintptr_t call_direct(RawFunction raw, std::span<const std::uintptr_t> args) {
  return call_direct<R, Args...>(raw, args, std::index_sequence_for<Args...>{});
}

// intercepted hands fn(args...) to `through` as a Call.
template <class R, class... Args>
R intercepted(Interceptor through, const Backend& b, std::string_view function, R (*fn)(Args...),
              Args... args) {
  static_assert(sizeof...(Args) <= Call::kMaxArgs, "a backend function takes at most six arguments");
  static_assert((is_word<Args>() && ...), "a backend function takes only integers and pointers");
  static_assert(std::is_void_v<R> || is_word<R>(), "a backend function returns only void, integers and pointers");
  // One spare element: a zero-length array is not C++.
  const std::uintptr_t words[sizeof...(Args) + 1] = {to_word<Args>(args)...};
  const std::uintptr_t result = through(Call{b, function, reinterpret_cast<RawFunction>(fn),
                                             {words, sizeof...(Args)}, &call_direct<R, Args...>});
  if constexpr (!std::is_void_v<R>) return from_word<R>(result);
}

}  // namespace detail
}  // namespace lockstep
