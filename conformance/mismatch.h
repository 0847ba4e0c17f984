// describe_mismatch: what a failure message says about two byte strings that
// should be equal. Printing both in full is unreadable past a few dozen
// bytes, and cutting them (as hex() does) can print two different strings
// identically; this names the first offset where they differ and shows a
// window of bytes around it from both. Header-only and free of the suites'
// other helpers, so that the vector runner (vector_runner.cpp) and the CLI
// share it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace lockstep::conformance {

// The window shows this many bytes on each side of the first difference.
inline constexpr size_t kMismatchContext = 16;

namespace mismatch_detail {

// window renders b[start, end) as hex, the byte at `mark` in brackets,
// "..." where b goes on beyond the window and "(end)" where it stops inside.
inline std::string window(std::span<const uint8_t> b, size_t start, size_t end, size_t mark) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = start > 0 ? "..." : "";
  for (size_t i = start; i < end && i < b.size(); ++i) {
    if (i == mark) out += '[';
    out += kDigits[b[i] >> 4];
    out += kDigits[b[i] & 15];
    if (i == mark) out += ']';
  }
  if (b.size() < end) out += "(end)";
  else if (b.size() > end) out += "...";
  return out;
}

}  // namespace mismatch_detail

// describe_mismatch says where `got` and `want` first differ, for example
//   "first difference at offset 1000 of 4096 bytes (1 byte differs), bytes
//    984..1016: got ...d8d9...e7[17]e9...f8..., expected ...d8d9...e7[e8]e9...f8..."
// (bytes `start..last`, both included).
// (one line). A length difference is named too; equal inputs say so.
inline std::string describe_mismatch(std::span<const uint8_t> got, std::span<const uint8_t> want) {
  const size_t common = std::min(got.size(), want.size());
  size_t first = 0;
  while (first < common && got[first] == want[first]) ++first;
  if (first == common && got.size() == want.size())
    return "equal (" + std::to_string(got.size()) + " bytes)";
  size_t differing = 0;
  for (size_t i = first; i < common; ++i) differing += got[i] != want[i];

  std::string out;
  if (got.size() != want.size()) {
    out = "lengths differ (got " + std::to_string(got.size()) + " bytes, expected " +
          std::to_string(want.size()) + "); ";
    out += first == common ? "equal up to offset " + std::to_string(first)
                           : "first difference at offset " + std::to_string(first);
  } else {
    out = "first difference at offset " + std::to_string(first) + " of " + std::to_string(got.size()) +
          " bytes (" + std::to_string(differing) + (differing == 1 ? " byte differs)" : " bytes differ)");
  }
  const size_t start = first > kMismatchContext ? first - kMismatchContext : 0;
  const size_t end = first + kMismatchContext + 1;
  const size_t last = std::min(end, std::max(got.size(), want.size())) - 1;  // inclusive
  out += ", bytes " + std::to_string(start) + ".." + std::to_string(last) + ": got " + mismatch_detail::window(got, start, end, first) + ", expected " +
         mismatch_detail::window(want, start, end, first);
  return out;
}

}  // namespace lockstep::conformance
