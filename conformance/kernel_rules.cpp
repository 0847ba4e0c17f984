#include "kernel_rules.h"

#include <cstring>

#include "guarded_buffer.h"
#include "vectors/kernel_walk.h"
#include "vectors/vector_file.h"

namespace lockstep::conformance {

Consolidated consolidated_hash(const catalog::HashAlgorithm& alg, const Backend* b,
                               size_t max_len) {
  const Bytes src = vectors::kernel_data(max_len);
  GuardedBuffer buf(max_len, "data");
  uint8_t* data = buf.tail(max_len);
  if (max_len) std::memcpy(data, src.data(), max_len);

  RawCtx ctx(alg.ctx_size, alg.ctx_align);
  Bytes h(alg.digest_size);
  alg.init(ctx.get(), b);
  vectors::kernel_hash_walk(
      std::span<const uint8_t>(data, max_len),
      [&](std::span<const uint8_t> msg) {
        alg.digest(msg.data(), msg.size(), h.data(), b);
        return std::span<const uint8_t>(h);
      },
      [&](std::span<const uint8_t> part) { alg.update(ctx.get(), part.data(), part.size()); });
  Consolidated out;
  out.value.resize(alg.digest_size);
  alg.final(ctx.get(), out.value.data());
  out.ctx_zeroized = all_zero(ctx.get(), ctx.size());
  return out;
}

Consolidated consolidated_hmac(const catalog::HashAlgorithm& alg, const Backend* b, size_t max_len,
                               const std::function<void(const HmacStep&)>& observe) {
  const Bytes src = vectors::kernel_data(max_len);
  GuardedBuffer data_buf(max_len, "data");
  uint8_t* data = data_buf.tail(max_len);
  if (max_len) std::memcpy(data, src.data(), max_len);
  GuardedBuffer key_buf(vectors::kKernelHmacKeyModulus, "key");

  RawCtx key(alg.hmac_key_size, alg.ctx_align);
  RawCtx ctx(alg.hmac_ctx_size, alg.ctx_align);
  {
    const Bytes outer = vectors::kernel_data(vectors::kKernelHmacOuterKeyLen);
    uint8_t* k = key_buf.tail(outer.size());
    std::memcpy(k, outer.data(), outer.size());
    alg.hmac_prepare_key(key.get(), k, outer.size(), b);
    alg.hmac_init(ctx.get(), key.get(), b);
  }
  Bytes mac(alg.digest_size);
  vectors::kernel_hmac_walk(
      std::span<const uint8_t>(data, max_len),
      [&](std::span<const uint8_t> raw_key, std::span<const uint8_t> msg) {
        uint8_t* k = key_buf.tail(raw_key.size());
        if (!raw_key.empty()) std::memcpy(k, raw_key.data(), raw_key.size());
        alg.hmac(k, raw_key.size(), msg.data(), msg.size(), mac.data(), b);
        if (observe) observe({msg.size(), {k, raw_key.size()}, msg, mac});
        return std::span<const uint8_t>(mac);
      },
      [&](std::span<const uint8_t> part) { alg.hmac_update(ctx.get(), part.data(), part.size()); });
  Consolidated out;
  out.value.resize(alg.digest_size);
  alg.hmac_final(ctx.get(), out.value.data());
  out.ctx_zeroized = all_zero(ctx.get(), ctx.size());
  return out;
}

}  // namespace lockstep::conformance
