// Small inline files of every upstream format (and one of lockstep's own),
// shared by the readers' tests (import_test.cpp) and the runner's
// (conformance/vector_runner_test.cpp), so that both read the same files.
// Test code only: it uses GoogleTest.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace lockstep::vectors::import::samples {

// replace returns `text` with the first `from` replaced by `to`.
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// --- Wycheproof --------------------------------------------------------------

// RFC 4231 test case 2 under HMAC-SHA256, full and truncated to 128 bits.
inline const std::string kWycheproof = R"({
  "algorithm": "HMACSHA256",
  "schema": "mac_test_schema_v1.json",
  "numberOfTests": 5,
  "header": ["test"],
  "notes": {"Ktv": {"bugType": "BASIC", "description": "known answer"}},
  "testGroups": [
    {"type": "MacTest", "source": {"name": "test", "version": "1"}, "keySize": 32, "tagSize": 256,
     "tests": [
      {"tcId": 1, "comment": "RFC 4231 2", "flags": ["Ktv"], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "result": "valid"},
      {"tcId": 2, "comment": "flipped", "flags": [], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3842", "result": "invalid"}]},
    {"type": "MacTest", "source": {"name": "test", "version": "1"}, "keySize": 32, "tagSize": 128,
     "tests": [
      {"tcId": 3, "comment": "truncated", "flags": [], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575c", "result": "valid"},
      {"tcId": 4, "comment": "one byte short", "flags": [], "key": "4a656665",
       "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "5bdcc146bf60754e6a042426089575", "result": "invalid"},
      {"tcId": 5, "comment": "either", "flags": [], "key": "4a656665",
       "msg": "", "tag": "00000000000000000000000000000000", "result": "acceptable"}]}
  ]
})";

// The 128-bit tag above has a digit missing on purpose for the malformed
// test; the good file has the full 16 bytes.
inline std::string good_wycheproof() {
  return replace(kWycheproof, "\"5bdcc146bf60754e6a042426089575c\"", "\"5bdcc146bf60754e6a042426089575c7\"");
}

// RFC 4231 test case 2 over SHA-512/224, whose 28-byte tag ends inside a
// 64-bit word (tag from Crypto++ and OpenSSL, which agree), and a bit flipped.
inline const std::string kWycheproofSha512_224 = R"({"algorithm": "HMACSHA512/224", "schema": "mac_test_schema_v1.json",
    "numberOfTests": 2, "testGroups": [{"type": "MacTest", "keySize": 32, "tagSize": 224, "tests": [
      {"tcId": 1, "comment": "", "flags": [], "key": "4a656665", "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "4a530b31a79ebcce36916546317c45f247d83241dfb818fd37254bde", "result": "valid"},
      {"tcId": 2, "comment": "", "flags": [], "key": "4a656665", "msg": "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
       "tag": "4a530b31a79ebcce36916546317c45f247d83241dfb818fd37254bdf", "result": "invalid"}]}]})";

// An algorithm lockstep lacks: every test is read, and skipped with the reason.
inline const std::string kWycheproofSha3 = R"({"algorithm": "HMACSHA3-224", "schema": "mac_test_schema_v1.json",
    "numberOfTests": 2, "testGroups": [{"type": "MacTest", "keySize": 256, "tagSize": 224, "tests": [
      {"tcId": 1, "comment": "", "flags": [], "key": "", "msg": "", "tag": "", "result": "valid"},
      {"tcId": 2, "comment": "", "flags": [], "key": "", "msg": "", "tag": "", "result": "invalid"}]}]})";

// --- ACVP --------------------------------------------------------------------

inline const std::string kAcvpPrompt = R"({"vsId": 42, "algorithm": "SHA2-256", "revision": "1.0", "isSample": true,
 "testGroups": [
  {"tgId": 1, "testType": "AFT", "tests": [
    {"tcId": 1, "msg": "616263", "len": 24},
    {"tcId": 2, "msg": "00", "len": 0},
    {"tcId": 3, "msg": "6180", "len": 9}]},
  {"tgId": 2, "testType": "MCT", "mctVersion": "standard", "tests": [
    {"tcId": 4, "msg": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "len": 256}]},
  {"tgId": 3, "testType": "MCT", "mctVersion": "alternate", "tests": [
    {"tcId": 5, "msg": "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F60616263", "len": 800}]},
  {"tgId": 4, "testType": "LDT", "tests": [
    {"tcId": 6, "largeMsg": {"content": "616263", "contentLength": 24, "fullLength": 80, "expansionTechnique": "repeating"}},
    {"tcId": 7, "largeMsg": {"content": "616263", "contentLength": 24, "fullLength": 24000008, "expansionTechnique": "repeating"}}]}
 ]})";

inline const std::string kAcvpExpected = R"({"vsId": 42, "algorithm": "SHA2-256", "revision": "1.0", "isSample": true,
 "testGroups": [
  {"tgId": 1, "tests": [
    {"tcId": 1, "md": "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"},
    {"tcId": 2, "md": "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"},
    {"tcId": 3, "md": "0000000000000000000000000000000000000000000000000000000000000000"}]},
  {"tgId": 2, "tests": [{"tcId": 4, "resultsArray": [
    {"md": "0D0A4B6DC0BA9A5E7089A00EB0042F465641FA860944BCB074A88D76E8DF7893"},
    {"md": "88CB2447640F5A4E7684EB7D06FE8A6EC175B492114BB88C7AB489D5EEFD1BD9"}]}]},
  {"tgId": 3, "tests": [{"tcId": 5, "resultsArray": [
    {"md": "5DB78A6EAA199BB90407FE662E07E97E2E7E8B29AF29E0433B4DD8CB06B9DDED"},
    {"md": "60995359417D135608924A0EDF36D8D34EBE1070DA09A1A18DEF3D738D4A8DCC"}]}]},
  {"tgId": 4, "tests": [
    {"tcId": 6, "md": "DEC3CBBDB5A2455F024763C222865100142D98BA9441257693980FBDAFB58EFE"},
    {"tcId": 7, "md": "52F75B2C73DFDA22BA0D459CEECC20F05BCE746971D619DF2E21F334332B1C12"}]}
 ]})";

// HMAC, revision 1.0: lengths in the group; RFC 4231 test case 2, tag cut to
// 192 bits.
inline const std::string kAcvpHmacV1 = R"({"vsId": 0, "algorithm": "HMAC-SHA2-384", "revision": "1.0", "isSample": false,
    "testGroups": [{"tgId": 1, "testType": "AFT", "keyLen": 32, "msgLen": 224, "macLen": 192, "tests": [
      {"tcId": 1, "key": "4A656665", "msg": "7768617420646F2079612077616E7420666F72206E6F7468696E673F",
       "mac": "AF45D2E376484031617F78D2B58A6B1B9C7EF464F5A01B47"}]}]})";

// HMAC, revision 2.0: lengths per test; the second test's 31-bit key is
// skipped.
inline const std::string kAcvpHmacV2 = R"({"vsId": 0, "algorithm": "HMAC-SHA2-512", "revision": "2.0", "isSample": false,
    "testGroups": [{"tgId": 1, "testType": "AFT", "tests": [
      {"tcId": 1, "key": "4A656665", "keyLen": 32, "msg": "7768617420646F2079612077616E7420666F72206E6F7468696E673F",
       "msgLen": 224, "mac": "164B7A7BFCF819E2E395FBE73B56E0A3", "macLen": 128},
      {"tcId": 2, "key": "4A656664", "keyLen": 31, "msg": "", "msgLen": 0, "mac": "00", "macLen": 8}]}]})";

// SHA-512/224: FIPS 180-4's "abc" example and the empty message (ACVP's
// "00" with len 0), whose digest is the ACVP sample vector set's.
inline const std::string kAcvpSha512_224 = R"({"vsId": 0, "algorithm": "SHA2-512/224", "revision": "1.0", "isSample": true,
    "testGroups": [{"tgId": 1, "testType": "AFT", "tests": [
      {"tcId": 1, "msg": "616263", "len": 24, "md": "4634270F707B6A54DAAE7530460842E20E37ED265CEEE9A43E8924AA"},
      {"tcId": 2, "msg": "00", "len": 0, "md": "6ED0DD02806FA89E25DE060C19D3AC86CABB87D6A0DDD05C333B84F4"}]}]})";

// --- CAVP --------------------------------------------------------------------

inline const std::string kCavpShort =
    "#  CAVS 11.0\r\n#  \"SHA-256 ShortMsg\" information\r\n#  SHA-256 tests are configured for BYTE oriented implementations\r\n"
    "\r\n[L = 32]\r\n\r\n"
    "Len = 0\r\nMsg = 00\r\nMD = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\r\n\r\n"
    "Len = 24\r\nMsg = 616263\r\nMD = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\r\n\r\n"
    "Len = 4\r\nMsg = 60\r\nMD = 0000000000000000000000000000000000000000000000000000000000000000\r\n";

inline const std::string kCavpMonte =
    "#  CAVS 11.1\r\n#  \"SHA-224 Monte\" information for \"sha_values\"\r\n\r\n[L = 28]\r\n\r\n"
    "Seed = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b\r\n\r\n"
    "COUNT = 0\r\nMD = 6c0d1c05aa94b8975d887f6ecebf51ee57b3df1f6fd13586e312419d\r\n\r\n"
    "COUNT = 1\r\nMD = bd8511db4ea4914f6f14cd3ad0f15a2b8f24ce65bc62394fcf2e3823\r\n\r\n";

// --- Botan -------------------------------------------------------------------

inline const std::string kBotan = R"(
#test cpuid avx2 ssse3

[ChaCha(20)]
# RFC 8439 A.1 #1 and #2: the keystream of blocks 0 and 1
Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Out = 76B8E0ADA0F13D90405D6AE55386BD28BDD219B8A08DED1AA836EFCC8B770DC7DA41597C5157488D7724E03FB8D84A376A43B8F41518A11CC387B669B2EE6586

Seek = 63
Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Out = 869F07E7BE5551387A98BA

Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Seek = 64
In = 00000000000000000000000000000000
Out = 9f07e7be5551387a98ba977c732d080d

Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000000000000000000000000000
Out = bcd02a18bf3f01d19292de30a7a8fdaca4b65e50a6002cc72cd6d2f7c91ac3d5

Key = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
Nonce = 000102030405060708090a0b0c0d0e0f1011121314151617
Seek = 66
Out = 0f7f90d28dae334426cecb52a8e84b47

Key = 00000000000000000000000000000000
Nonce = 0000000000000000
Out = E28A5FA4A67F8C5D

Key = 0000000000000000000000000000000000000000000000000000000000000000
Out = 76B8E0ADA0F13D90

Key = 0000000000000000000000000000000000000000000000000000000000000000
Nonce = 000000000000000000000000
Seek = 274877906940
Out = 0000000000000000

[ChaCha(12)]
Key = 8ac4a02d74de7e3c3a2b51eaf2ebf90c7d75ee4445b2e419420cd729e8e146c6
Nonce = dca89c467002c7fd9980abd1
Seek = 35516770624
In = 5d
Out = 0a

[ChaCha(8)]
Key = 00000000000000000000000000000000
Out = E28A5FA4A67F8C5D

[HMAC(SHA-256)]
Key = 4A656665
In = 7768617420646F2079612077616E7420666F72206E6F7468696E673F
Out = 5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843

[HMAC(SHA-512-256)]
Key = 4A656665
In = 7768617420646F2079612077616E7420666F72206E6F7468696E673F
Out = 6DF7B24630D5CCB2EE335407081A87188C221489768FA2020513B2D593359456

[SHA-256]
In =
Out = E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855

In = 616263
Out = BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD

[SHA-384]
In = 616263
Out = CB00753F45A35E8BB5A03D699AC65007272C32AB0EDED1631A8B605A43FF5BED8086072BA1E7CC2358BAECA134C825A7

[Poly1305]
Key = 00
In = 00
Out = 00

[ChaCha(20)]
# Bernstein's layout: an 8-byte nonce at 64-bit block 2^32 (OpenSSL and
# Crypto++ agree), then a message that carries from block 2^32 - 1 into it
Key = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
Nonce = 0001020304050607
Seek = 274877906944
Out = 2fcab2c09a960545c6f57e9269ebc22b

Key = 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
Nonce = 0001020304050607
Seek = 274877906880
Out = a2b8d04b13877b4a7013cb9031e4b70836e9705a9691bd18f8fca48502eacdcae0b8faaeef6c5dfee436afd8268aa6385dabb2855761127a3946b50d649f9a4b2fcab2c09a960545c6f57e9269ebc22b4ed12782e66dc4cb612536f5cdbed4bcba16af8a92140bf4ded4808af8eee82bd0f18fbb64f073c2a547bc2372528f36

[ChaCha20Poly1305]
# RFC 8439 2.8.2: the ciphertext, then the tag
Key = 808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f
Nonce = 070000004041424344454647
AD = 50515253c0c1c2c3c4c5c6c7
In = 4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e
Out = d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b61161ae10b594f09e26a7e902ecbd0600691

# draft-agl-tls-chacha20poly1305-04's vector: an 8-byte nonce, Bernstein's layout
Key = 4290bcb154173531f314af57f3be3b5006da371ece272afa1b5dbdd1100a1007
In = 86d09974840bded2a5ca
Nonce = cd7cf67be39c794a
AD = 87e229d4500845a079c0
Out = e3e446f7ede9a19b62a4677dabf4e3d24b876bb284753896e1d6
)";

// --- ChaCha keystreams in AEAD and stream-cipher files -----------------------

// Wycheproof AeadTest: RFC 8439 2.8.2 (valid: its ciphertext is the
// keystream from block 1), the same with the tag's last bit flipped (only
// Poly1305 could tell), and a group of 8-byte nonces.
inline const std::string kWycheproofAead = R"({"algorithm": "CHACHA20-POLY1305", "schema": "aead_test_schema_v1.json",
  "numberOfTests": 3, "testGroups": [
    {"type": "AeadTest", "ivSize": 96, "keySize": 256, "tagSize": 128, "tests": [
      {"tcId": 1, "comment": "RFC 8439 2.8.2", "flags": [], "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
       "iv": "070000004041424344454647", "aad": "50515253c0c1c2c3c4c5c6c7",
       "msg": "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e",
       "ct": "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
       "tag": "1ae10b594f09e26a7e902ecbd0600691", "result": "valid"},
      {"tcId": 2, "comment": "tag bit flipped", "flags": [], "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
       "iv": "070000004041424344454647", "aad": "50515253c0c1c2c3c4c5c6c7",
       "msg": "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e",
       "ct": "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
       "tag": "1ae10b594f09e26a7e902ecbd0600690", "result": "invalid"}]},
    {"type": "AeadTest", "ivSize": 64, "keySize": 256, "tagSize": 128, "tests": [
      {"tcId": 3, "comment": "", "flags": [], "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", "iv": "4041424344454647",
       "aad": "", "msg": "", "ct": "", "tag": "00000000000000000000000000000000", "result": "invalid"}]}]})";

// XChaCha20-Poly1305: draft-irtf-cfrg-xchacha-03, A.3.1.
inline const std::string kWycheproofXAead = R"({"algorithm": "XCHACHA20-POLY1305", "schema": "aead_test_schema_v1.json",
  "numberOfTests": 1, "testGroups": [
    {"type": "AeadTest", "ivSize": 192, "keySize": 256, "tagSize": 128, "tests": [
      {"tcId": 1, "comment": "draft A.3.1", "flags": [], "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
       "iv": "404142434445464748494a4b4c4d4e4f5051525354555657", "aad": "50515253c0c1c2c3c4c5c6c7",
       "msg": "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e",
       "ct": "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff921f9664c97637da9768812f615c68b13b52e",
       "tag": "c0875924c1c7987947deafd8780acf49", "result": "valid"}]}]})";

// Wycheproof StreamCipherTest, written from stream_cipher_test_schema_v1:
// the initial counter is little-endian, ct is left out of invalid tests and
// of empty messages. Zero key and IV throughout; the keystream bytes come
// from OpenSSL and sodium_compat (through Wycheproof), which agree, and for
// tcId 1 from RFC 8439 A.1 #2.
inline const std::string kWycheproofStream = R"({"algorithm": "CHACHA20", "schema": "stream_cipher_test_schema_v1.json",
  "header": [], "notes": {}, "numberOfTests": 9, "testGroups": [
    {"type": "StreamCipherTest", "source": {"name": "test", "version": "1"}, "algorithm": "ChaCha20-IETF",
     "keySize": 256, "ivSize": 96, "counterSize": 32, "tests": [
      {"tcId": 1, "comment": "block 1", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000",
       "initialCounter": "01000000", "msg": "00000000000000000000000000000000", "ct": "9f07e7be5551387a98ba977c732d080d", "result": "valid", "flags": []},
      {"tcId": 2, "comment": "the last block", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000",
       "initialCounter": "ffffffff", "msg": "00", "ct": "ac", "result": "valid", "flags": []},
      {"tcId": 3, "comment": "past the last block", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000",
       "initialCounter": "ffffffff", "msg": "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", "result": "invalid", "flags": []},
      {"tcId": 4, "comment": "empty", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000",
       "initialCounter": "ffffffff", "msg": "", "result": "valid", "flags": []}]},
    {"type": "StreamCipherTest", "source": {"name": "test", "version": "1"}, "algorithm": "XChaCha20",
     "keySize": 256, "ivSize": 192, "counterSize": 64, "tests": [
      {"tcId": 5, "comment": "the last block below 2^32", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000000000000000000000000000",
       "initialCounter": "ffffffff00000000", "msg": "00", "ct": "b9", "result": "valid", "flags": []},
      {"tcId": 6, "comment": "carries into the high word", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000000000000000000000000000",
       "initialCounter": "ffffffff00000000", "msg": "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
       "ct": "b95212612451119424ff54b88064f035a0ef69b53a28c634b679ebf6b319c5483769a7f22742571d18b0e2faebb1df1ca70225752d4f68f24ad58a4d2dc5c32b88", "result": "valid", "flags": []},
      {"tcId": 7, "comment": "high word set", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000000000000000000000000000",
       "initialCounter": "feffffffffffffff", "msg": "00", "ct": "d5", "result": "valid", "flags": []},
      {"tcId": 8, "comment": "past 2^64", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "000000000000000000000000000000000000000000000000",
       "initialCounter": "ffffffffffffffff", "msg": "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", "result": "invalid", "flags": []}]},
    {"type": "StreamCipherTest", "source": {"name": "test", "version": "1"}, "algorithm": "Salsa20",
     "keySize": 256, "ivSize": 64, "counterSize": 64, "tests": [
      {"tcId": 9, "comment": "", "key": "0000000000000000000000000000000000000000000000000000000000000000", "iv": "0000000000000000",
       "initialCounter": "0000000000000000", "msg": "", "result": "valid", "flags": []}]}]})";

// KizzyCode's JSON: RFC 8439 A.1 #1 (counter 0), RFC 8439 2.8.2 (its
// ciphertext and tag), libsodium's XChaCha20 test vector #1 (keystream from
// block 0; OpenSSL agrees), a Poly1305 entry, an error entry and an API test.
inline const std::string kKizzycode = R"({"crypto": [
    {"name": "RFC 8439 A.1 #1", "key": "0000000000000000000000000000000000000000000000000000000000000000", "nonce": "000000000000000000000000",
     "plaintext": "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "ciphertext": "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
    {"name": "RFC 8439 2.8.2", "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", "nonce": "070000004041424344454647",
     "ad": "50515253c0c1c2c3c4c5c6c7",
     "plaintext": "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e",
     "ciphertext": "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b61161ae10b594f09e26a7e902ecbd0600691"},
    {"name": "libsodium xchacha20 #1", "key": "79c99798ac67300bbb2704c95c341e3245f3dcb21761b98e52ff45b24f304fc4",
     "nonce": "b33ffd3096479bcfbc9aee49417688a0a2554f8d95389419",
     "ciphertext": "c6e9758160083ac604ef90e712ce6e75d7797590744e0cf060f013739c"},
    {"name": "poly1305", "key": "0000000000000000000000000000000000000000000000000000000000000000", "data": "", "mac": "00000000000000000000000000000000"}],
  "error": [
    {"name": "Invalid tag", "key": "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", "nonce": "070000004041424344454647", "ad": "", "ciphertext": "00000000000000000000000000000000"}],
  "api": {"defaults": {"key_len": 32}, "tests": [{"name": "Invalid key length", "key_len": 31, "error": "ApiMisuse"}]}})";

// --- lockstep's own schemas --------------------------------------------------

// lockstep's own schema: a file a user wrote runs like any other format.
// SHA-256("abc") from FIPS 180-4, once as valid and once, a bit flipped, as
// invalid (it must not match).
inline constexpr const char* kOwnHash = R"({"algorithm": "SHA-256", "schema": "lockstep-hash-v1", "numberOfTests": 2,
  "testGroups": [{"type": "HashTest", "source": "FIPS 180-4 B.1", "tests": [
    {"tcId": 1, "comment": "abc", "flags": [], "result": "valid", "msg": "616263",
     "md": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"tcId": 2, "comment": "abc, md bit flipped", "flags": [], "result": "invalid", "msg": "616263",
     "md": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ac"}]}]})";

}  // namespace lockstep::vectors::import::samples
