// OpenSSL 3.0 deprecates the one-block Transform functions but still ships
// them; they are exactly the hardware's block step, so this file alone opts
// back in.
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "phe/compress.h"

#include <openssl/sha.h>

namespace lockstep::phe::detail {

void sha1_blocks(uint32_t h[5], const uint8_t* data, size_t n) {
  SHA_CTX c{};
  c.h0 = h[0];
  c.h1 = h[1];
  c.h2 = h[2];
  c.h3 = h[3];
  c.h4 = h[4];
  for (; n; --n, data += SHA_CBLOCK) SHA1_Transform(&c, data);
  h[0] = c.h0;
  h[1] = c.h1;
  h[2] = c.h2;
  h[3] = c.h3;
  h[4] = c.h4;
}

void sha256_blocks(uint32_t h[8], const uint8_t* data, size_t n) {
  SHA256_CTX c{};
  for (int i = 0; i < 8; ++i) c.h[i] = h[i];
  for (; n; --n, data += SHA256_CBLOCK) SHA256_Transform(&c, data);
  for (int i = 0; i < 8; ++i) h[i] = c.h[i];
}

void sha512_blocks(uint64_t h[8], const uint8_t* data, size_t n) {
  SHA512_CTX c{};
  for (int i = 0; i < 8; ++i) c.h[i] = h[i];
  for (; n; --n, data += SHA512_CBLOCK) SHA512_Transform(&c, data);
  for (int i = 0; i < 8; ++i) h[i] = c.h[i];
}

}  // namespace lockstep::phe::detail
