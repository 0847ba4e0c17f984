/* SPDX-License-Identifier: MIT */
/*
 * chacha_block_xor_ssse3, chacha_4block_xor_ssse3 and hchacha_block_ssse3
 * of lockstep's miniature of the older layout (chacha-mini-asm.h).
 */
#include "chacha-mini-asm.h"

.text
CHACHA_XOR_BLOCKS chacha_block_xor_ssse3, 1, "pshufb %xmm1, %xmm0"
CHACHA_XOR_BLOCKS chacha_4block_xor_ssse3, 4, "pshufb %xmm1, %xmm0"

SYM_FUNC_START(hchacha_block_ssse3)
	pshufb	%xmm1, %xmm0
	jmp	hchacha_block_generic@PLT
SYM_FUNC_END(hchacha_block_ssse3)
