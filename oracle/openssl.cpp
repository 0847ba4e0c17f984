// The OpenSSL adapter: libcrypto's EVP interfaces, the independent second
// opinion. OpenSSL chooses its own code path (OPENSSL_ia32cap); lockstep
// does not steer it.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

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

}  // namespace lockstep::oracle::detail
