/*
 * lockstep module interface, ABI version 5 (versions 1 to 4 still load).
 *
 * A module is a shared object that hands lockstep backends it did not
 * write: a kernel developer's new assembly, a firmware SHA-512, a library's
 * SIMD path. lockstep loads it (`--module FILE.so`, or LOCKSTEP_MODULES),
 * calls the one entry function below, and then puts every backend it lists
 * through the same checks as its own: conformance, vectors, fuzz, abi.
 *
 * The shapes follow the Linux kernel's lib/crypto, so kernel code drops in:
 * the hash block functions take the eight chaining words in host order, the
 * 2-way finup takes the kernel's struct __sha256_ctx layout, and the ChaCha
 * functions are chacha_crypt() and hchacha_block().
 *
 * C, not C++: kernel, firmware and C library code includes it as it is.
 */
#ifndef LOCKSTEP_MODULE_H
#define LOCKSTEP_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A module states the version it was built against; lockstep refuses
 * versions it does not know rather than guess at a layout. Version 2
 * appended chacha_overlap and wipes to struct lockstep_backend and changed
 * nothing before them: lockstep reads a version 1 module's array with the
 * version 1 element size, never past it, and takes the fields it lacks as 0.
 * A module that must also load into a lockstep that knows only version 1
 * defines LOCKSTEP_MODULE_ABI_VERSION as 1 before including this file, and
 * gets the version 1 layout. Version 3 appended unavailable, algorithms,
 * hash_driver and broken in the same way, version 4 max_call_bytes, version
 * 5 same_code_as and cipher_driver, version 6 mac_driver and kunit. */
#ifndef LOCKSTEP_MODULE_ABI_VERSION
#define LOCKSTEP_MODULE_ABI_VERSION 6
#endif
#if LOCKSTEP_MODULE_ABI_VERSION < 1 || LOCKSTEP_MODULE_ABI_VERSION > 6
#error "lockstep/module.h: LOCKSTEP_MODULE_ABI_VERSION is 1 to 6"
#endif

/* The eight chaining words, host order: the kernel's sha256_block_state. */
struct lockstep_sha256_state {
	uint32_t h[8];
};

/* The same for SHA-384/SHA-512: the kernel's sha512_block_state. */
struct lockstep_sha512_state {
	uint64_t h[8];
};

/* A SHA-256 context as a 2-way finup reads it, laid out as the kernel's
 * struct __sha256_ctx: the state, the byte count so far, then the partial
 * block (bytecount % 64 bytes of it are valid). */
struct lockstep_sha256_ctx {
	struct lockstep_sha256_state state;
	uint64_t bytecount;
	uint8_t buf[64];
};

/* Sixteen ChaCha words: constants, key, block counter (word 12), nonce. */
struct lockstep_chacha_state {
	uint32_t x[16];
};

/* How a ChaCha backend moves past block counter 2^32 - 1. */
enum lockstep_chacha_counter {
	/* Word 12 wraps to 0, word 13 is untouched: RFC 8439, the kernel. */
	LOCKSTEP_COUNTER_WRAP32 = 0,
	/* Word 12 carries into word 13, a 64-bit counter: OpenSSL's EVP. */
	LOCKSTEP_COUNTER_CARRY64 = 1,
};

/* Where a ChaCha backend's crypt may write dst against src. dst above src
 * with overlap is allowed to none: lockstep never calls so. */
enum lockstep_chacha_overlap {
	/* dst == src, dst below src with overlap (dst < src < dst + len), or
	 * apart: lockstep's own backends, and the rule before ABI version 2. */
	LOCKSTEP_OVERLAP_ANY = 0,
	/* dst == src or apart, never partly overlapping: OpenSSL's EVP,
	 * libsodium, Mbed TLS. */
	LOCKSTEP_OVERLAP_INPLACE = 1,
	/* dst and src apart, never the same bytes. */
	LOCKSTEP_OVERLAP_NONE = 2,
};

/* The ChaCha round counts lockstep checks, as bits of lockstep_backend's
 * chacha_rounds. */
#define LOCKSTEP_ROUNDS_12 (1u << 12)
#define LOCKSTEP_ROUNDS_20 (1u << 20)

/* A hash as a message-at-a-time driver offers it (ABI version 3): a Linux
 * crypto API shash, say, with its own descriptor, partial-block buffer and
 * finalisation. lockstep drives it as the kernel's testmgr does (init,
 * update, final, finup, digest, export and import, split at every boundary)
 * and compares every digest with its oracle. Each function gets the driver
 * it belongs to (for `opaque`) and a descriptor of desc_size bytes,
 * 16-aligned, that lockstep owns; it returns 0 or a negative errno. */
struct lockstep_hash_driver {
	void *opaque;       /* the module's, untouched by lockstep */
	size_t desc_size;   /* bytes of the descriptor */
	size_t state_size;  /* bytes export writes and import reads */
	size_t digest_size; /* bytes final, finup and digest write */
	int (*init)(const struct lockstep_hash_driver *d, void *desc);
	int (*update)(const struct lockstep_hash_driver *d, void *desc,
		      const uint8_t *data, unsigned int len);
	int (*final)(const struct lockstep_hash_driver *d, void *desc, uint8_t *out);
	int (*finup)(const struct lockstep_hash_driver *d, void *desc,
		     const uint8_t *data, unsigned int len, uint8_t *out);
	int (*digest)(const struct lockstep_hash_driver *d, void *desc,
		      const uint8_t *data, unsigned int len, uint8_t *out);
	int (*export_state)(const struct lockstep_hash_driver *d, void *desc, void *out);
	int (*import_state)(const struct lockstep_hash_driver *d, void *desc, const void *in);
};

/* A stream cipher as a whole-message driver offers it (ABI version 5): a
 * Linux crypto API skcipher that derives its own key, an XChaCha one,
 * which lockstep's ChaCha function (a state whose key is already derived)
 * cannot reach. crypt is one request as the kernel's users make one: the
 * 32-byte key set, then len bytes of src to dst (the same buffer, or
 * apart) under iv, the kernel's 32-byte XChaCha IV: the 24-byte nonce,
 * then the 64-bit little-endian block counter. It returns 0 or a negative
 * errno. */
struct lockstep_cipher_driver {
	void *opaque;  /* the module's, untouched by lockstep */
	int nrounds;   /* 20 (XChaCha20) or 12 (XChaCha12) */
	size_t iv_size; /* 32 */
	int (*crypt)(const struct lockstep_cipher_driver *d, const uint8_t key[32],
		     const uint8_t *iv, uint8_t *dst, const uint8_t *src, size_t len);
};

/* A keyed hash as a library with prepared keys offers it (ABI version
 * 6): HMAC as the kernel's lib/crypto has it (hmac_sha256_preparekey(),
 * hmac_sha256_init(), _update(), _final(), hmac_sha256(), and the
 * _usingrawkey forms). A prepared key is key_size bytes and a context
 * desc_size bytes, 16-aligned, that lockstep owns. lockstep prepares a key
 * once and uses it for many messages, in contexts side by side, and holds
 * every MAC to its oracle and the key to what it was. */
struct lockstep_mac_driver {
	void *opaque;      /* the module's, untouched by lockstep */
	size_t key_size;   /* bytes of a prepared key */
	size_t desc_size;  /* bytes of a context */
	size_t mac_size;   /* bytes final and mac write */
	void (*preparekey)(const struct lockstep_mac_driver *d, void *key,
			   const uint8_t *raw_key, size_t raw_key_len);
	void (*init)(const struct lockstep_mac_driver *d, void *desc, const void *key);
	void (*init_usingrawkey)(const struct lockstep_mac_driver *d, void *desc,
				 const uint8_t *raw_key, size_t raw_key_len);
	void (*update)(const struct lockstep_mac_driver *d, void *desc,
		       const uint8_t *data, size_t len);
	void (*final)(const struct lockstep_mac_driver *d, void *desc, uint8_t *out);
	void (*mac)(const struct lockstep_mac_driver *d, const void *key,
		    const uint8_t *data, size_t len, uint8_t *out);
	void (*mac_usingrawkey)(const struct lockstep_mac_driver *d,
				const uint8_t *raw_key, size_t raw_key_len,
				const uint8_t *data, size_t len, uint8_t *out);
};

/* How a KUnit case ended. */
enum lockstep_kunit_status {
	LOCKSTEP_KUNIT_PASS = 0,
	LOCKSTEP_KUNIT_FAIL = 1,
	LOCKSTEP_KUNIT_SKIP = 2,
};

/* A KUnit suite built into the module (ABI version 6): a kernel tree's own
 * lib/crypto/tests/<algorithm>_kunit.c, unchanged, over the module's code.
 * run runs it whole in the calling thread, as the kernel's KUnit executor
 * runs one (suite_init, each case and each parameter of a parameterised
 * case, suite_exit), writes its KTAP as subtest `number` one line at a time
 * through line(), and reports each case through result(): its name, a
 * lockstep_kunit_status, and its log (the failed expectations, or why it
 * skipped). It returns the suite's status. */
struct lockstep_kunit_suite {
	void *opaque;     /* the module's, untouched by lockstep */
	const char *name; /* the suite's: "sha256" */
	const char *file; /* what it is built from: "lib/crypto/tests/sha256_kunit.c" */
	int (*run)(const struct lockstep_kunit_suite *s, int number,
		   void (*line)(void *arg, const char *text),
		   void (*result)(void *arg, const char *case_name, int status, const char *log),
		   void *arg);
};

struct lockstep_backend {
	/* "sha256" (SHA-256, SHA-224), "sha512" (SHA-512, SHA-384) or
	 * "chacha" (ChaCha20, ChaCha12, XChaCha20). */
	const char *family;
	/* Unique within the family; lockstep shows "<family>/<name>". Letters,
	 * digits and "-_.:" only, e.g. "openssl:block_data_order". */
	const char *name;
	/* CPU features the code needs, space-separated, in lockstep's names
	 * (`lockstep list` shows them: "avx2", "sha_ni", "avx512vl", "sha2",
	 * ...). NULL or "" for none. Where the CPU lacks one, every check of
	 * the backend is a SKIP that names it. */
	const char *needs;
	/* One line for `lockstep list`; may be NULL. */
	const char *notes;

	/* Family sha256. Required: compress nblocks (>= 1) 64-byte blocks of
	 * data, which has no alignment, into state. */
	void (*sha256_blocks)(struct lockstep_sha256_state *state,
			      const uint8_t *data, size_t nblocks);
	/* Optional: finish two equal-length messages that share the prefix
	 * in ctx (read only), writing both 32-byte SHA-256 digests. Return
	 * false to decline (lockstep then finishes both one at a time). */
	bool (*sha256_finup_2x)(const struct lockstep_sha256_ctx *ctx,
				const uint8_t *data1, const uint8_t *data2,
				size_t len, uint8_t out1[32], uint8_t out2[32]);

	/* Family sha512. Required: as sha256_blocks, 128-byte blocks. */
	void (*sha512_blocks)(struct lockstep_sha512_state *state,
			      const uint8_t *data, size_t nblocks);

	/* Family chacha. Required: XOR len bytes of keystream into src,
	 * writing dst, starting at the counter in word 12, and advance the
	 * counter by one per 64-byte block (a partial block counts as one).
	 * dst lies against src as chacha_overlap allows: by default it may
	 * equal src or lie below it with overlap (dst < src), as lockstep's
	 * own backends allow; dst above src never overlaps it. nrounds is 20
	 * or 12, as chacha_rounds allows. */
	void (*chacha_crypt)(struct lockstep_chacha_state *state, uint8_t *dst,
			     const uint8_t *src, size_t len, int nrounds);
	/* Optional: the kernel's hchacha_block(): permute state (key and
	 * 16-byte nonce set up) by nrounds and output words 0..3, 12..15. */
	void (*hchacha)(const struct lockstep_chacha_state *state,
			uint32_t out[8], int nrounds);
	/* enum lockstep_chacha_counter; 0 is the RFC 8439 wrap. */
	int chacha_counter;
	/* LOCKSTEP_ROUNDS_* bits crypt supports; 0 means both. */
	unsigned chacha_rounds;

#if LOCKSTEP_MODULE_ABI_VERSION >= 2
	/* ABI version 2 from here on; a version 1 module has none of these
	 * fields, and lockstep takes each as 0 for it. */

	/* enum lockstep_chacha_overlap, where crypt may write dst against
	 * src; 0 is lockstep's own rule (dst == src, or dst below src). A
	 * case outside what a backend declares is not held against it:
	 * conformance reports its result as outside the declared contract,
	 * a SKIP with the reason, and the fuzzer does not generate it. */
	int chacha_overlap;
	/* true: every function of the backend wipes the secrets it handled
	 * (key and state words, keystream, message schedule) from its stack
	 * and from any buffer of its own before it returns, as lockstep's
	 * own backends do, and lockstep's residue check fails it where it
	 * does not. false (0) promises nothing: what the check finds is a
	 * warning, never a failure. */
	bool wipes;
#endif

#if LOCKSTEP_MODULE_ABI_VERSION >= 3
	/* ABI version 3 from here on. */

	/* Non-NULL where the module cannot run this backend in the process
	 * that loaded it, saying why ("the glue's init did not register
	 * sha256-avx2 on this CPU"): every check of it is a SKIP with this
	 * reason. A module whose backends depend on the CPU lists the same
	 * backends everywhere and marks these, so that every environment
	 * shows the same rows. */
	const char *unavailable;
	/* The family's algorithms the backend is for, space-separated
	 * ("sha224", "sha384"); NULL or "" for all of them. The others are
	 * SKIP rows that say so. */
	const char *algorithms;
	/* Optional, sha256 and sha512: the same code as a whole-message
	 * driver (above), for the one algorithm `algorithms` names. */
	const struct lockstep_hash_driver *hash_driver;
	/* Non-NULL where the module found this backend broken in the process
	 * that loaded it, saying how ("the glue's init crashed (SIGSEGV)"):
	 * every check of it is a FAIL with this text, nothing is called. */
	const char *broken;
#endif

#if LOCKSTEP_MODULE_ABI_VERSION >= 4
	/* ABI version 4 from here on. */

	/* The most bytes one call of the backend hands the code under test
	 * at once, where the module's own code splits longer calls (a
	 * kernel glue's 4 KiB SIMD sections around one tree function); 0:
	 * the whole length reaches it. The huge column, whose one call past
	 * 2^31 bytes looks for lengths that wrap, is a SKIP that says so
	 * where this is smaller. */
	size_t max_call_bytes;
#endif

#if LOCKSTEP_MODULE_ABI_VERSION >= 5
	/* ABI version 5 from here on. */

	/* NULL, or the name of another backend of this module whose
	 * hash_driver runs the same code as this one's for every length, all
	 * but its init (a glue's sha224 driver beside its sha256 one: the
	 * same update, final, finup and digest, another initial state). The
	 * huge column makes its 2^31-byte call through that one, and says so
	 * here. */
	const char *same_code_as;
	/* Optional, family chacha, for the algorithm xchacha20: the backend
	 * as a whole-message cipher (above), set only where the module can run
	 * it here. chacha_crypt may then be NULL: conformance drives the
	 * driver (every length, in place and apart, misaligned, the counter
	 * across its wrap), and every other check is a SKIP that says so. */
	const struct lockstep_cipher_driver *cipher_driver;
#endif

#if LOCKSTEP_MODULE_ABI_VERSION >= 6
	/* ABI version 6 from here on. */

	/* Optional, sha256 and sha512: HMAC of the one algorithm `algorithms`
	 * names, through the module's code (above); conformance drives it. */
	const struct lockstep_mac_driver *mac_driver;
	/* Optional: the KUnit suite that tests this backend's algorithm
	 * through the module's code (above); the kunit column runs it. */
	const struct lockstep_kunit_suite *kunit;
#endif
};

struct lockstep_module {
	uint32_t abi_version; /* LOCKSTEP_MODULE_ABI_VERSION */
	const char *name;     /* for reports: "openssl-3.0" */
	const struct lockstep_backend *backends;
	size_t backend_count;
};

/* The one function a module exports, under this name in every ABI
 * version (abi_version says which layout its table has). lockstep calls it
 * once, after loading, and keeps the pointer: the data must live as long
 * as the module. */
#define LOCKSTEP_MODULE_ENTRY lockstep_module_v1
const struct lockstep_module *lockstep_module_v1(void);

/* The table and the entry function for a static array of backends, in one
 * line at the end of a module's file, for the ABI version the file was
 * built with:
 *
 *     LOCKSTEP_MODULE("mine", backends);
 */
#define LOCKSTEP_MODULE(module_name, backend_array)                            \
	static const struct lockstep_module lockstep_module_table_;           \
	__attribute__((visibility("default")))                                \
	const struct lockstep_module *lockstep_module_v1(void)                \
	{                                                                      \
		return &lockstep_module_table_;                                \
	}                                                                      \
	static const struct lockstep_module lockstep_module_table_ = {        \
		LOCKSTEP_MODULE_ABI_VERSION, (module_name), (backend_array),  \
		sizeof(backend_array) / sizeof((backend_array)[0])}

#ifdef __cplusplus
}
#endif

#endif /* LOCKSTEP_MODULE_H */
