// SPDX-License-Identifier: MIT
/* KUnit suite of the miniature tree's SHA-224 library: published vectors. */
#include <crypto/sha2.h>
#include "hash-vectors.h"

static const struct hash_vector sha224_vectors[] = {
	{"empty", "", "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"},
	{"abc", "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
	{"448-bit", fips_448, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"},
};
KUNIT_ARRAY_PARAM(sha224_vectors, sha224_vectors, vector_desc);

static void test_sha224_vectors(struct kunit *test)
{
	const struct hash_vector *v = test->param_value;
	u8 want[SHA224_DIGEST_SIZE], got[SHA224_DIGEST_SIZE];

	hex_to_bytes(test, v->digest, want, sizeof(want));
	sha224((const u8 *)v->msg, strlen(v->msg), got);
	KUNIT_ASSERT_MEMEQ(test, got, want, sizeof(want));
}

static void test_hmac_sha224(struct kunit *test)
{
	static const u8 want[SHA224_DIGEST_SIZE] = {
		0x89, 0x6f, 0xb1, 0x12, 0x8a, 0xbb, 0xdf, 0x19, 0x68, 0x32, 0x10, 0x7c, 0xd4, 0x9d,
		0xf3, 0x3f, 0x47, 0xb4, 0xb1, 0x16, 0x99, 0x12, 0xba, 0x4f, 0x53, 0x68, 0x4b, 0x22,
	}; /* RFC 4231, test case 1 */
	u8 raw[20], mac[SHA224_DIGEST_SIZE];
	struct hmac_sha224_key key;

	memset(raw, 0x0b, sizeof(raw));
	hmac_sha224_preparekey(&key, raw, sizeof(raw));
	hmac_sha224(&key, (const u8 *)"Hi There", 8, mac);
	KUNIT_EXPECT_MEMEQ(test, mac, want, sizeof(want));
}

static struct kunit_case sha224_test_cases[] = {
	KUNIT_CASE_PARAM(test_sha224_vectors, sha224_vectors_gen_params),
	KUNIT_CASE(test_hmac_sha224),
	{},
};

static struct kunit_suite sha224_test_suite = {
	.name = "sha224",
	.test_cases = sha224_test_cases,
};
kunit_test_suite(sha224_test_suite);

MODULE_DESCRIPTION("KUnit tests of the miniature tree's SHA-224 library");
MODULE_LICENSE("MIT");
