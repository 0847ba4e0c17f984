/*
 * <asm/macro.h> in lockstep's U-Boot environment: U-Boot's holds the
 * exception-level switching macros of its armv8 start code, which crypto
 * assembly includes and does not use. Empty, so that a use is a build
 * error (a SKIP with the assembler's message), never a silent stub.
 */
