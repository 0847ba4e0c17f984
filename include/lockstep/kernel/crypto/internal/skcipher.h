/* <crypto/internal/skcipher.h> in lockstep's kernel environment: crypto_api.h has
 * what kernel crypto code uses of it. */
#include "../../../crypto_api.h"
