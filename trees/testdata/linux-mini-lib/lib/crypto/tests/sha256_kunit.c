// SPDX-License-Identifier: MIT
/*
 * KUnit suite of the miniature tree's SHA-256 library: published vectors
 * (a parameterised case), pieces against one call, HMAC with a prepared key
 * used twice, the 2-way finup against one message at a time, and all of it
 * while interrupts hash too.
 */
#include <crypto/sha2.h>
#include "hash-vectors.h"

static const struct hash_vector sha256_vectors[] = {
	{"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"448-bit", fips_448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
};
KUNIT_ARRAY_PARAM(sha256_vectors, sha256_vectors, vector_desc);

static void test_sha256_vectors(struct kunit *test)
{
	const struct hash_vector *v = test->param_value;
	u8 want[SHA256_DIGEST_SIZE], got[SHA256_DIGEST_SIZE];

	hex_to_bytes(test, v->digest, want, sizeof(want));
	sha256((const u8 *)v->msg, strlen(v->msg), got);
	KUNIT_ASSERT_MEMEQ(test, got, want, sizeof(want));
}

static u8 buf[3000];

static void test_sha256_pieces(struct kunit *test)
{
	u8 whole[SHA256_DIGEST_SIZE], pieces[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i * 7 + 3;
	sha256(buf, sizeof(buf), whole);
	for (size_t step = 1; step < 200; step += 37) {
		sha256_init(&ctx);
		for (size_t at = 0; at < sizeof(buf); at += step)
			sha256_update(&ctx, &buf[at], min(step, sizeof(buf) - at));
		sha256_final(&ctx, pieces);
		KUNIT_ASSERT_MEMEQ_MSG(test, pieces, whole, sizeof(whole), "pieces of %zu bytes", step);
	}
}

static const struct hmac_vector hmac_vectors[] = {
	{"rfc4231-1", 0x0b, 20, NULL, "Hi There",
	 "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
	{"rfc4231-2", 0, 0, "Jefe", "what do ya want for nothing?",
	 "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
	{"rfc4231-6", 0xaa, 131, NULL, rfc4231_6,
	 "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
};

/* One prepared key, two messages' MACs in a row: the key serves both. */
static void test_hmac_sha256(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(hmac_vectors); i++) {
		const struct hmac_vector *v = &hmac_vectors[i];
		u8 raw[131], want[SHA256_DIGEST_SIZE], mac[SHA256_DIGEST_SIZE];
		const size_t raw_len = v->key ? strlen(v->key) : v->key_len;
		struct hmac_sha256_key key;

		if (v->key)
			memcpy(raw, v->key, raw_len);
		else
			memset(raw, v->key_byte, raw_len);
		hex_to_bytes(test, v->mac, want, sizeof(want));
		hmac_sha256_preparekey(&key, raw, raw_len);
		for (int round = 0; round < 2; round++) {
			hmac_sha256(&key, (const u8 *)v->msg, strlen(v->msg), mac);
			KUNIT_EXPECT_MEMEQ_MSG(test, mac, want, sizeof(want), "%s, use %d of the prepared key",
					       v->desc, round + 1);
		}
		hmac_sha256_usingrawkey(raw, raw_len, (const u8 *)v->msg, strlen(v->msg), mac);
		KUNIT_EXPECT_MEMEQ_MSG(test, mac, want, sizeof(want), "%s, raw key", v->desc);
	}
}

/* The 2-way finup, its fallback included, against sha256() of each. */
static void test_sha256_finup_2x(struct kunit *test)
{
	u8 a[SHA256_DIGEST_SIZE], b[SHA256_DIGEST_SIZE], want[SHA256_DIGEST_SIZE];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i * 13 + 1;
	for (size_t len = 0; len <= 300; len += 11) {
		sha256_finup_2x(NULL, buf, &buf[1500], len, a, b);
		sha256(buf, len, want);
		KUNIT_ASSERT_MEMEQ_MSG(test, a, want, sizeof(want), "first message, len=%zu", len);
		sha256(&buf[1500], len, want);
		KUNIT_ASSERT_MEMEQ_MSG(test, b, want, sizeof(want), "second message, len=%zu", len);
	}
}

static u8 irq_expected[SHA256_DIGEST_SIZE];

static bool sha256_irq_func(void *unused)
{
	u8 got[SHA256_DIGEST_SIZE];

	sha256(buf, 1000, got);
	return memcmp(got, irq_expected, sizeof(got)) == 0;
}

static void test_sha256_interrupted(struct kunit *test)
{
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i;
	sha256(buf, 1000, irq_expected);
	kunit_run_irq_test(test, sha256_irq_func, 20000, NULL);
}

static void benchmark_sha256(struct kunit *test)
{
	kunit_skip(test, "not enabled");
}

static struct kunit_case sha256_test_cases[] = {
	KUNIT_CASE_PARAM(test_sha256_vectors, sha256_vectors_gen_params),
	KUNIT_CASE(test_sha256_pieces),
	KUNIT_CASE(test_hmac_sha256),
	KUNIT_CASE(test_sha256_finup_2x),
	KUNIT_CASE(test_sha256_interrupted),
	KUNIT_CASE(benchmark_sha256),
	{},
};

static struct kunit_suite sha256_test_suite = {
	.name = "sha256",
	.test_cases = sha256_test_cases,
};
kunit_test_suite(sha256_test_suite);

MODULE_DESCRIPTION("KUnit tests of the miniature tree's SHA-256 library");
MODULE_LICENSE("MIT");
