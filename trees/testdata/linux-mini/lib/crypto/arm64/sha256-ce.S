/* SPDX-License-Identifier: MIT */
/*
 * mini_sha256_ce(state, data, nblocks) of lockstep's miniature tree: one
 * SHA-256 instruction on v8 (which kernel code may write inside its
 * section), then the generic code.
 */
#include <linux/linkage.h>

	.text
	.arch	armv8-a+crypto

SYM_FUNC_START(mini_sha256_ce)
	sha256h	q8, q9, v10.4s
	b	sha256_blocks_generic
SYM_FUNC_END(mini_sha256_ce)
