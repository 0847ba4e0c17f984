/* <asm/cpu_device_id.h> in lockstep's kernel environment: kernel_compat.h has
 * what kernel crypto code uses of it. */
#include "../../kernel_compat.h"
