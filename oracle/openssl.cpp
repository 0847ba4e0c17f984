// The OpenSSL adapter: libcrypto's EVP interfaces, the independent second
// opinion. OpenSSL chooses its own code path (OPENSSL_ia32cap); lockstep
// does not steer it.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "internal.h"

namespace lockstep::oracle::detail {
namespace {

struct Entry {
  std::string_view name;
  const EVP_MD* (*md)();
};

#define LOCKSTEP_OPENSSL_ENTRY(name, cls, evp) Entry{name, &evp},
const Entry kEntries[] = {LOCKSTEP_ORACLE_HASHES(LOCKSTEP_OPENSSL_ENTRY)};
#undef LOCKSTEP_OPENSSL_ENTRY

const EVP_MD* md_of(std::string_view alg) {
  for (const Entry& e : kEntries)
    if (e.name == alg) return e.md();
  throw std::invalid_argument("oracle: unknown algorithm " + std::string(alg));
}

[[noreturn]] void fail(const char* what) {
  std::string msg = std::string("oracle: openssl: ") + what;
  if (unsigned long err = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(err, buf, sizeof buf);
    msg += ": ";
    msg += buf;
  }
  ERR_clear_error();
  throw std::runtime_error(msg);
}

struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct MacFree {
  void operator()(EVP_MAC* m) const { EVP_MAC_free(m); }
};
struct MacCtxFree {
  void operator()(EVP_MAC_CTX* c) const { EVP_MAC_CTX_free(c); }
};
struct MdFree {
  void operator()(EVP_MD* m) const { EVP_MD_free(m); }
};

struct CipherFree {
  void operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
};
struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};

// chacha20_cipher is fetched once, as the HMAC object is.
const EVP_CIPHER* chacha20_cipher() {
  static const std::unique_ptr<EVP_CIPHER, CipherFree> cipher(
      EVP_CIPHER_fetch(nullptr, "ChaCha20", nullptr));
  if (!cipher) fail("EVP_CIPHER_fetch(ChaCha20)");
  return cipher.get();
}

// evp_chacha20 is EVP_chacha20 as OpenSSL defines it: `iv` is the 32-bit
// counter (little-endian) followed by the 12-byte nonce, and the counter
// carries into the nonce's first word at 2^32.
void evp_chacha20(std::span<const uint8_t> key, const uint8_t iv[16], const uint8_t* in,
                  uint8_t* out, size_t len) {
  std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
  if (!ctx) fail("EVP_CIPHER_CTX_new");
  if (EVP_EncryptInit_ex2(ctx.get(), chacha20_cipher(), key.data(), iv, nullptr) != 1)
    fail("EVP_EncryptInit_ex2(ChaCha20)");
  // EVP_EncryptUpdate takes an int length; whole blocks per step keep the
  // counter in step.
  constexpr size_t kStep = size_t{1} << 30;
  while (len > 0) {
    const size_t n = std::min(len, kStep);
    int outl = 0;
    if (EVP_EncryptUpdate(ctx.get(), out, &outl, in, static_cast<int>(n)) != 1 ||
        static_cast<size_t>(outl) != n)
      fail("EVP_EncryptUpdate(ChaCha20)");
    in += n;
    out += n;
    len -= n;
  }
}

class OpensslStream : public StreamImpl {
 public:
  explicit OpensslStream(std::string_view alg) : ctx_(EVP_MD_CTX_new()) {
    const EVP_MD* md = md_of(alg);
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), md, nullptr) != 1) fail("EVP_DigestInit_ex");
  }
  void update(std::span<const uint8_t> data) override {
    if (EVP_DigestUpdate(ctx_.get(), nonnull(data), data.size()) != 1) fail("EVP_DigestUpdate");
  }
  Bytes final() override {
    Bytes out(EVP_MAX_MD_SIZE);
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), out.data(), &len) != 1) fail("EVP_DigestFinal_ex");
    out.resize(len);
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx_;
};

}  // namespace

Bytes openssl_digest(std::string_view alg, std::span<const uint8_t> msg) {
  const EVP_MD* md = md_of(alg);
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int len = 0;
  if (EVP_Digest(nonnull(msg), msg.size(), out.data(), &len, md, nullptr) != 1)
    fail("EVP_Digest");
  out.resize(len);
  return out;
}

Bytes openssl_hmac(std::string_view alg, std::span<const uint8_t> key,
                   std::span<const uint8_t> msg) {
  const EVP_MD* md = md_of(alg);
  // Fetched once: EVP_MAC_fetch is a provider lookup, and the fetched
  // object is immutable, so threads may share it.
  static const std::unique_ptr<EVP_MAC, MacFree> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  if (!mac) fail("EVP_MAC_fetch(HMAC)");
  std::unique_ptr<EVP_MAC_CTX, MacCtxFree> ctx(EVP_MAC_CTX_new(mac.get()));
  if (!ctx) fail("EVP_MAC_CTX_new");
  std::string digest_name = EVP_MD_get0_name(md);
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name.data(), 0),
      OSSL_PARAM_construct_end()};
  // A non-null key pointer even for an empty key: EVP_MAC_init reads a null
  // key as "keep the previous key", and there is none.
  if (EVP_MAC_init(ctx.get(), nonnull(key), key.size(), params) != 1) fail("EVP_MAC_init");
  if (EVP_MAC_update(ctx.get(), nonnull(msg), msg.size()) != 1) fail("EVP_MAC_update");
  Bytes out(EVP_MAX_MD_SIZE);
  size_t len = 0;
  if (EVP_MAC_final(ctx.get(), out.data(), &len, out.size()) != 1) fail("EVP_MAC_final");
  out.resize(len);
  return out;
}

std::unique_ptr<StreamImpl> openssl_stream(std::string_view alg) {
  return std::make_unique<OpensslStream>(alg);
}

std::string openssl_provider(std::string_view alg) {
  std::unique_ptr<EVP_MD, MdFree> md(EVP_MD_fetch(nullptr, EVP_MD_get0_name(md_of(alg)), nullptr));
  if (!md) fail("EVP_MD_fetch");
  return OSSL_PROVIDER_get0_name(EVP_MD_get0_provider(md.get()));
}

Bytes openssl_chacha20(std::span<const uint8_t> key, uint32_t counter,
                       std::span<const uint8_t> nonce, std::span<const uint8_t> msg) {
  Bytes out(msg.size());
  // EVP_chacha20 carries into the nonce at the wrap; each run starts afresh
  // at counter 0 with the nonce unchanged, as lockstep's counter does.
  for (const CounterRun& run : counter_runs(counter, msg.size())) {
    uint8_t iv[16];
    store_le32(iv, run.counter);
    std::memcpy(iv + 4, nonce.data(), 12);
    evp_chacha20(key, iv, msg.data() + run.offset, out.data() + run.offset, run.len);
  }
  return out;
}

Bytes openssl_hchacha20(std::span<const uint8_t> key, std::span<const uint8_t> nonce) {
  // The 16-byte IV is exactly state words 12..15, so the HChaCha nonce goes
  // in as it is; one block of keystream needs no split.
  uint8_t block[kChachaBlock] = {};
  evp_chacha20(key, nonce.data(), block, block, sizeof block);
  return hchacha_from_block(block, nonce);
}

std::string openssl_chacha_provider() {
  return OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(chacha20_cipher()));
}

}  // namespace lockstep::oracle::detail
