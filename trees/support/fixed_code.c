/*
 * Kernel assembly in the kernel's code model, which addresses its data with
 * 32-bit absolute addresses (`vpaddd K256+0*32(SRND), ...`, an
 * R_X86_64_32S relocation): no shared object can hold it, since it loads
 * anywhere. `lockstep tree` links such files into an image of their own at
 * a fixed address below 2 GiB, as the kernel links itself, and puts that
 * image inside the module; this maps it there before anything calls into
 * it. The image's functions are reached through jumps to their fixed
 * addresses (cli/tree/fixed_code.cpp writes them).
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern const unsigned char lockstep_fixed_image[] __attribute__((visibility("hidden")));

__attribute__((constructor)) static void lockstep_place_fixed_code(void)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)lockstep_fixed_image;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(lockstep_fixed_image + eh->e_phoff);
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	for (int i = 0; i < eh->e_phnum; ++i) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		const uintptr_t start = ph[i].p_vaddr & ~(page - 1);
		const size_t len = ((ph[i].p_vaddr + ph[i].p_memsz + page - 1) & ~(page - 1)) - start;
		void *at = mmap((void *)start, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				-1, 0);
		if (at != (void *)start) {
			fprintf(stderr,
				"lockstep: module %s: cannot place its fixed-address code at 0x%lx (%zu bytes): the "
				"addresses are in use in this process\n",
				LOCKSTEP_FIXED_MODULE, (unsigned long)start, len);
			abort();
		}
		memcpy((void *)ph[i].p_vaddr, lockstep_fixed_image + ph[i].p_offset, ph[i].p_filesz);
		const int prot = ((ph[i].p_flags & PF_R) ? PROT_READ : 0) | ((ph[i].p_flags & PF_W) ? PROT_WRITE : 0) |
				 ((ph[i].p_flags & PF_X) ? PROT_EXEC : 0);
		mprotect(at, len, prot);
	}
}
