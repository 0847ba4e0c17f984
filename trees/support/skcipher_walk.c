/*
 * The skcipher walk of lockstep's crypto API model (lockstep/crypto_api.h):
 * the chunks the kernel's skcipher_walk_virt() hands a glue for a request
 * over one buffer (crypto/skcipher.c, Linux 5.4 to 6.16). A chunk ends
 * where a page of the source or of the destination ends; where less than
 * one stride (the driver's walksize) is left before that and more remains
 * in the request, the walk copies one stride into a bounce buffer and
 * hands that instead (the kernel's slow path). A glue that returns part
 * of a chunk unprocessed gets it again at the start of the next one.
 */
#include <lockstep/crypto_api.h>

#include <stdint.h>
#include <stdio.h>

static unsigned int to_page_end(const void *p)
{
	return PAGE_SIZE - (unsigned int)((uintptr_t)p % PAGE_SIZE);
}

static int walk_next(struct skcipher_walk *walk)
{
	unsigned int n = walk->total;
	const unsigned int bsize = min(walk->stride, max(n, walk->blocksize));

	n = min(n, to_page_end(walk->lockstep_in));
	n = min(n, to_page_end(walk->lockstep_out));
	walk->lockstep_slow = n < bsize;
	if (walk->lockstep_slow) {
		if (walk->total < walk->blocksize)
			return skcipher_walk_done(walk, -EINVAL);
		memcpy(walk->lockstep_bounce, walk->lockstep_in, bsize);
		walk->src.virt.addr = walk->dst.virt.addr = walk->lockstep_bounce;
		walk->nbytes = bsize;
		return 0;
	}
	walk->src.virt.addr = (void *)walk->lockstep_in;
	walk->dst.virt.addr = walk->lockstep_out;
	walk->nbytes = n;
	return 0;
}

int skcipher_walk_virt(struct skcipher_walk *walk, struct skcipher_request *req, bool atomic)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);

	(void)atomic;
	memset(walk, 0, offsetof(struct skcipher_walk, lockstep_bounce));
	walk->total = req->cryptlen;
	walk->iv = req->iv;
	walk->lockstep_in = req->src->lockstep_buf;
	walk->lockstep_out = req->dst->lockstep_buf;
	walk->stride = tfm->alg->walksize;
	walk->blocksize = tfm->alg->base.cra_blocksize;
	return walk->total ? walk_next(walk) : 0;
}

int skcipher_walk_done(struct skcipher_walk *walk, int err)
{
	unsigned int n = walk->nbytes;

	if (err < 0 || (unsigned int)err > n || (walk->lockstep_slow && err > 0)) {
		/* The kernel WARNs where a glue leaves more than it was given,
		 * or any of a bounce buffer, and ends the walk with -EINVAL. */
		if (err >= 0)
			fprintf(stderr, "skcipher_walk_done: %d bytes left of a chunk of %u%s (-EINVAL)\n", err, n,
				walk->lockstep_slow ? " in the bounce buffer" : "");
		memzero_explicit(walk->lockstep_bounce, sizeof walk->lockstep_bounce);
		walk->nbytes = walk->total = 0;
		return err < 0 ? err : -EINVAL;
	}
	n -= (unsigned int)err;
	if (walk->lockstep_slow) {
		memcpy(walk->lockstep_out, walk->lockstep_bounce, n);
		memzero_explicit(walk->lockstep_bounce, sizeof walk->lockstep_bounce);
	}
	walk->lockstep_in += n;
	walk->lockstep_out += n;
	walk->total -= n;
	walk->nbytes = 0;
	return walk->total ? walk_next(walk) : 0;
}
