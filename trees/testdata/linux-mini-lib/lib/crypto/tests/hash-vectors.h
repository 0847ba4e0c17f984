/* SPDX-License-Identifier: MIT */
/*
 * What the miniature tree's KUnit suites share: published vectors as a
 * parameter table, and a hex helper. FIPS 180-4's examples ("abc", the
 * empty message, the 448-bit one) and RFC 4231's HMAC test cases 1, 2, 6.
 */
#include <kunit/run-in-irq-context.h>
#include <kunit/test.h>

struct hash_vector {
	const char *desc;
	const char *msg;
	const char *digest; /* hex */
};

struct hmac_vector {
	const char *desc;
	u8 key_byte;	   /* the key: key_len bytes of key_byte, or ... */
	size_t key_len;
	const char *key;   /* ... this text where set */
	const char *msg;
	const char *mac;   /* hex */
};

static void vector_desc(const struct hash_vector *v, char *desc)
{
	strcpy(desc, v->desc);
}

static void hex_to_bytes(struct kunit *test, const char *hex, u8 *out, size_t len)
{
	KUNIT_ASSERT_EQ(test, strlen(hex), 2 * len);
	for (size_t i = 0; i < len; i++) {
		unsigned int byte;

		KUNIT_ASSERT_EQ(test, sscanf(hex + 2 * i, "%2x", &byte), 1);
		out[i] = byte;
	}
}

static const char fips_448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char rfc4231_6[] = "Test Using Larger Than Block-Size Key - Hash Key First";
