/*
 * An example lockstep module written the way lib/crypto code is: kernel
 * types and attributes, an assembly helper with the kernel's linkage
 * macros (load_be32.S), kernel_fpu_begin()/end() around the block loop where
 * irq_fpu_usable() allows a section, and
 * a static_call to the selected block function, all from
 * lockstep/kernel_compat.h. Built with it included first:
 *
 *   cc -shared -fPIC -O2 -I include -include lockstep/kernel_compat.h \
 *      modules/example/sha256_kernel_style.c modules/example/load_be32.S \
 *      -o libexample.so
 */
#include <lockstep/module.h>

asmlinkage u32 example_load_be32(const u8 *p);

static const u32 K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static __always_inline u32 ror32(u32 x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_block_generic(u32 h[8], const u8 *data)
{
	u32 w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = example_load_be32(data + 4 * i);
	for (; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		       (ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       (ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = h[0], b = h[1], c = h[2], d = h[3];
	e = h[4], f = h[5], g = h[6], hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) +
		     ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		hh = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

/* The kernel selects its block function once and calls it through a
 * static_call; here the selection is the one function above. */
DEFINE_STATIC_CALL(example_sha256_block, sha256_block_generic);

static void sha256_blocks(struct lockstep_sha256_state *state, const u8 *data,
			  size_t nblocks)
{
	/* As lib/crypto's arch glue: a section only where one may be opened
	 * (not in an interrupt that came during another); the same block
	 * function outside one otherwise, since it needs no vector state. */
	const bool simd = irq_fpu_usable();

	if (simd)
		kernel_fpu_begin();
	while (nblocks--) {
		static_call(example_sha256_block)(state->h, data);
		data += 64;
	}
	if (simd)
		kernel_fpu_end();
}

static const struct lockstep_backend backends[] = {
	{
		.family = "sha256",
		.name = "example:kernel-style",
		.notes = "modules/example: kernel-style C and assembly through kernel_compat.h",
		.sha256_blocks = sha256_blocks,
		/* The message schedule w[] stays on the stack after each
		 * block; a backend that clears it (memzero_explicit) says so
		 * here with true, and the residue check then fails it if not. */
		.wipes = false,
	},
};

LOCKSTEP_MODULE("example", backends);
