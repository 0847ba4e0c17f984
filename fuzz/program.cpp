#include "program.h"

#include <algorithm>

#include <fmt/format.h>

namespace lockstep::fuzz {
namespace {

std::string hex_preview(const Bytes& b, size_t max = 64) {
  const auto end = b.begin() + static_cast<ptrdiff_t>(std::min(max, b.size()));
  std::string out = fmt::format("{:02x}", fmt::join(b.begin(), end, ""));
  if (b.size() > max) out += fmt::format("... ({} bytes)", b.size());
  return out.empty() ? "(empty)" : out;
}

}  // namespace

std::string_view operation_name(Operation op) {
  switch (op) {
    case Operation::kDigest: return "digest";
    case Operation::kHmac: return "hmac";
    case Operation::kFinup2x: return "finup_2x";
    case Operation::kCrypt: return "crypt";
  }
  return "?";
}

std::string_view overlap_name(Overlap o) {
  switch (o) {
    case Overlap::kSeparate: return "separate";
    case Overlap::kOverInputStart: return "output over input start";
    case Overlap::kOverInputEnd: return "output over input end";
  }
  return "?";
}

std::string Program::describe() const {
  std::string s = fmt::format("  algorithm: {}\n  operation: {}\n", algorithm, operation_name(op));
  s += fmt::format("  message:   {} bytes: {}\n", message.size(), hex_preview(message));
  std::string split_list;
  size_t used = 0;
  for (size_t n : splits) {
    const size_t take = std::min(n, message.size() - std::min(used, message.size()));
    split_list += fmt::format("{}{}", split_list.empty() ? "" : " ", take);
    used += take;
  }
  s += fmt::format("  updates:   [{}{}{}]\n", split_list, split_list.empty() ? "" : " ",
                   fmt::format("rest={}", message.size() - std::min(used, message.size())));
  s += fmt::format("  offsets:   input +{}, output +{}, context +{}\n", in_offset, out_offset, ctx_offset);
  s += fmt::format("  overlap:   {}\n", overlap_name(overlap));
  if (op == Operation::kHmac) s += fmt::format("  key:       {} bytes: {}\n", key.size(), hex_preview(key));
  if (op == Operation::kCrypt) {
    s += fmt::format("  key:       {}\n  nonce:     {}\n", hex_preview(key), hex_preview(nonce));
    s += fmt::format("  counter:   {} (2^32 - {})\n", counter, (uint64_t{1} << 32) - counter);
  }
  if (op == Operation::kFinup2x) {
    s += fmt::format("  prefix:    {} bytes (updates above apply to it)\n", prefix_len);
    s += fmt::format("  data2:     {} bytes: {}\n", data2.size(), hex_preview(data2));
  }
  return s;
}

}  // namespace lockstep::fuzz
