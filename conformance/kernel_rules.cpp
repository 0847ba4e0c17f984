#include "kernel_rules.h"

#include <cstring>

#include "guarded_buffer.h"
#include "vectors/vector_file.h"

namespace lockstep::conformance {

Consolidated consolidated_hash(const catalog::HashAlgorithm& alg, const Backend* b,
                               size_t max_len) {
  const Bytes src = vectors::kernel_data(max_len);
  GuardedBuffer buf(max_len);
  uint8_t* data = buf.tail(max_len);
  if (max_len) std::memcpy(data, src.data(), max_len);

  RawCtx ctx(alg.ctx_size, alg.ctx_align);
  Bytes h(alg.digest_size);
  alg.init(ctx.get(), b);
  for (size_t len = 0; len <= max_len; ++len) {
    alg.digest(data, len, h.data(), b);
    alg.update(ctx.get(), h.data(), h.size());
  }
  Consolidated out;
  out.value.resize(alg.digest_size);
  alg.final(ctx.get(), out.value.data());
  out.ctx_zeroized = all_zero(ctx.get(), ctx.size());
  return out;
}

Consolidated consolidated_hmac(const catalog::HashAlgorithm& alg, const Backend* b, size_t max_len,
                               const std::function<void(const HmacStep&)>& observe) {
  const Bytes src = vectors::kernel_data(max_len);
  GuardedBuffer data_buf(max_len);
  uint8_t* data = data_buf.tail(max_len);
  if (max_len) std::memcpy(data, src.data(), max_len);
  GuardedBuffer key_buf(kHmacMaxKeyLen);

  RawCtx key(alg.hmac_key_size, alg.ctx_align);
  RawCtx ctx(alg.hmac_ctx_size, alg.ctx_align);
  {
    const Bytes outer = vectors::kernel_data(kHmacOuterKeyLen);
    uint8_t* k = key_buf.tail(outer.size());
    std::memcpy(k, outer.data(), outer.size());
    alg.hmac_prepare_key(key.get(), k, outer.size(), b);
    alg.hmac_init(ctx.get(), key.get(), b);
  }
  Bytes mac(alg.digest_size);
  for (size_t len = 0; len <= max_len; ++len) {
    const size_t key_len = len % kHmacMaxKeyLen;
    alg.hmac_update(ctx.get(), data, len);
    const Bytes raw = vectors::kernel_data(key_len);
    uint8_t* k = key_buf.tail(key_len);
    if (key_len) std::memcpy(k, raw.data(), key_len);
    alg.hmac(k, key_len, data, len, mac.data(), b);
    alg.hmac_update(ctx.get(), mac.data(), mac.size());
    if (observe) observe({len, {k, key_len}, {data, len}, mac});
  }
  Consolidated out;
  out.value.resize(alg.digest_size);
  alg.hmac_final(ctx.get(), out.value.data());
  out.ctx_zeroized = all_zero(ctx.get(), ctx.size());
  return out;
}

}  // namespace lockstep::conformance
