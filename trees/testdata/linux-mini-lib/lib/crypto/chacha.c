// SPDX-License-Identifier: MIT
/*
 * The ChaCha library of lockstep's miniature tree, in the shape of the
 * kernel's lib/crypto/chacha.c: a generic chacha_crypt, the architecture's
 * behind chacha_crypt() and hchacha_block() ("chacha.h", from
 * lib/crypto/$(SRCARCH)).
 */
#include <crypto/chacha.h>
#include <crypto/utils.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/module.h>

/* Not static, unlike the kernel's: the miniature's "assembly" hands its
 * blocks here. */
void chacha_crypt_generic(struct chacha_state *state, u8 *dst, const u8 *src, unsigned int bytes, int nrounds)
{
	u8 stream[CHACHA_BLOCK_SIZE] __aligned(sizeof(long));

	while (bytes) {
		unsigned int n = min_t(unsigned int, bytes, CHACHA_BLOCK_SIZE);

		chacha_block_generic(state, stream, nrounds);
		crypto_xor_cpy(dst, src, stream, n);
		bytes -= n;
		dst += n;
		src += n;
	}
	memzero_explicit(stream, sizeof(stream));
}

#include "chacha.h" /* $(SRCARCH)/chacha.h */

void chacha_crypt(struct chacha_state *state, u8 *dst, const u8 *src, unsigned int bytes, int nrounds)
{
	chacha_crypt_arch(state, dst, src, bytes, nrounds);
}
EXPORT_SYMBOL_GPL(chacha_crypt);

void hchacha_block(const struct chacha_state *state, u32 out[HCHACHA_OUT_WORDS], int nrounds)
{
	hchacha_block_arch(state, out, nrounds);
}
EXPORT_SYMBOL_GPL(hchacha_block);

static int __init chacha_mod_init(void)
{
	chacha_mod_init_arch();
	return 0;
}
subsys_initcall(chacha_mod_init);

MODULE_DESCRIPTION("ChaCha library functions of lockstep's miniature tree");
MODULE_LICENSE("MIT");
