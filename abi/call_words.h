// How a C ABI passes an integer, enum or pointer in one general register,
// and how a narrow return value comes back in one: what the ABI column's
// trampoline (abi_check.h) and impl's call interceptors (impl/intercept.h)
// both need to call a typed function through a list of words. Standalone,
// so that both can include it.
#pragma once

#include <cstdint>
#include <type_traits>

namespace lockstep::abi::words {

// What fits one general register, both ways.
template <class T>
constexpr bool is_word() {
  if constexpr (std::is_integral_v<T> || std::is_enum_v<T> || std::is_pointer_v<T>) {
    return sizeof(T) <= sizeof(std::uintptr_t);
  } else {
    return false;  // void included: no sizeof
  }
}

template <class T>
std::uintptr_t to_word(T v) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<std::uintptr_t>(v);
  } else if constexpr (std::is_enum_v<T>) {
    return static_cast<std::uintptr_t>(static_cast<std::underlying_type_t<T>>(v));
  } else {
    return static_cast<std::uintptr_t>(v);  // signed values sign-extend
  }
}

// The ABIs define only the low sizeof(T) bytes of a narrow return value
// (a bool is the low byte), so everything above is dropped, never read.
template <class T>
T from_word(std::uintptr_t w) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(w);
  } else if constexpr (std::is_same_v<T, bool>) {
    return static_cast<std::uint8_t>(w) != 0;
  } else if constexpr (std::is_enum_v<T>) {
    return static_cast<T>(from_word<std::underlying_type_t<T>>(w));
  } else {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(w));
  }
}

}  // namespace lockstep::abi::words
