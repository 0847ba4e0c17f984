/* <linux/overflow.h> in lockstep's kernel environment: lockstep/kernel_library.h has
 * what the kernel's library front ends use of it. */
#include "../../kernel_library.h"
