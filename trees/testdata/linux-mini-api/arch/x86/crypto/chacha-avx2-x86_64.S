/* SPDX-License-Identifier: MIT */
/*
 * chacha_2block_xor_avx2, chacha_4block_xor_avx2 and chacha_8block_xor_avx2
 * of lockstep's miniature of the older layout (chacha-mini-asm.h).
 */
#include "chacha-mini-asm.h"

.text
CHACHA_XOR_BLOCKS chacha_2block_xor_avx2, 2, "vpshufb %ymm1, %ymm0, %ymm0", vzeroupper
CHACHA_XOR_BLOCKS chacha_4block_xor_avx2, 4, "vpshufb %ymm1, %ymm0, %ymm0", vzeroupper
CHACHA_XOR_BLOCKS chacha_8block_xor_avx2, 8, "vpshufb %ymm1, %ymm0, %ymm0", vzeroupper
