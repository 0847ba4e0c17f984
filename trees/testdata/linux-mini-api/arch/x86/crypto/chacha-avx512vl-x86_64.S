/* SPDX-License-Identifier: MIT */
/*
 * chacha_2block_xor_avx512vl, chacha_4block_xor_avx512vl and
 * chacha_8block_xor_avx512vl of lockstep's miniature of the older layout
 * (chacha-mini-asm.h). Its glue does not call them: the recipe builds the
 * file, and the kernel's has them.
 */
#include "chacha-mini-asm.h"

.text
CHACHA_XOR_BLOCKS chacha_2block_xor_avx512vl, 2, "vpaddd %ymm16, %ymm16, %ymm16", vzeroupper
CHACHA_XOR_BLOCKS chacha_4block_xor_avx512vl, 4, "vpaddd %ymm16, %ymm16, %ymm16", vzeroupper
CHACHA_XOR_BLOCKS chacha_8block_xor_avx512vl, 8, "vpaddd %ymm16, %ymm16, %ymm16", vzeroupper
