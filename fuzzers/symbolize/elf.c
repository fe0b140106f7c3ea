// SPDX-License-Identifier: GPL-2.0
/*
 * The two facts about an object the symbolizer needs before running any
 * tool: is it relocatable (a .ko, whose sections all start at 0, so that an
 * address means something only within one section), and has it a line
 * table at all (a vmlinux built without CONFIG_DEBUG_INFO has symbols but
 * no lines, and addr2line would only print "??:0" for every frame).
 *
 * Read from the ELF header and section headers of either class and byte
 * order: a cross vmlinux (arm64, or a big-endian one) is read on x86.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/binutils.h"

struct reader {
	int fd;
	bool is64, swap;
};

static uint64_t get(const struct reader *r, const unsigned char *p, int size)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * (r->swap ? size - 1 - i : i));
	return v;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t r = pread(fd, buf, n, off);

	if (r < 0)
		return -errno;
	return (size_t)r == n ? 0 : -ENOEXEC;
}

/* Section header i: its name offset, type, file offset, size, link. */
struct shdr {
	uint64_t name, type, offset, size, link;
};

static int read_shdr(const struct reader *r, uint64_t shoff, uint64_t entsize, uint64_t i,
		     struct shdr *sh)
{
	unsigned char b[sizeof(Elf64_Shdr)];
	int err;

	if (entsize < (r->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return -ENOEXEC;
	err = read_at(r->fd, b, r->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr),
		      shoff + i * entsize);
	if (err)
		return err;
	sh->name = get(r, b, 4);
	sh->type = get(r, b + 4, 4);
	if (r->is64) {
		sh->offset = get(r, b + offsetof(Elf64_Shdr, sh_offset), 8);
		sh->size = get(r, b + offsetof(Elf64_Shdr, sh_size), 8);
		sh->link = get(r, b + offsetof(Elf64_Shdr, sh_link), 4);
	} else {
		sh->offset = get(r, b + offsetof(Elf32_Shdr, sh_offset), 4);
		sh->size = get(r, b + offsetof(Elf32_Shdr, sh_size), 4);
		sh->link = get(r, b + offsetof(Elf32_Shdr, sh_link), 4);
	}
	return 0;
}

static bool is_line_table(const char *name)
{
	/* compressed sections keep the name; old GNU ones were .zdebug_ */
	return !strcmp(name, ".debug_line") || !strcmp(name, ".zdebug_line");
}

static int probe(struct reader *r, struct sym_elf *e)
{
	unsigned char h[sizeof(Elf64_Ehdr)];
	uint64_t shoff, entsize, shnum, shstrndx;
	struct shdr sh, strsh;
	char *names;
	int err;

	err = read_at(r->fd, h, EI_NIDENT, 0);
	if (err)
		return err;
	if (memcmp(h, ELFMAG, SELFMAG) || (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64))
		return -ENOEXEC;
	r->is64 = h[EI_CLASS] == ELFCLASS64;
	r->swap = h[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
				 ELFDATA2MSB);
	err = read_at(r->fd, h, r->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr), 0);
	if (err)
		return err;
	e->rel = get(r, h + offsetof(Elf64_Ehdr, e_type), 2) == ET_REL;
	e->machine = get(r, h + offsetof(Elf64_Ehdr, e_machine), 2);
	if (r->is64) {
		shoff = get(r, h + offsetof(Elf64_Ehdr, e_shoff), 8);
		entsize = get(r, h + offsetof(Elf64_Ehdr, e_shentsize), 2);
		shnum = get(r, h + offsetof(Elf64_Ehdr, e_shnum), 2);
		shstrndx = get(r, h + offsetof(Elf64_Ehdr, e_shstrndx), 2);
	} else {
		shoff = get(r, h + offsetof(Elf32_Ehdr, e_shoff), 4);
		entsize = get(r, h + offsetof(Elf32_Ehdr, e_shentsize), 2);
		shnum = get(r, h + offsetof(Elf32_Ehdr, e_shnum), 2);
		shstrndx = get(r, h + offsetof(Elf32_Ehdr, e_shstrndx), 2);
	}
	if (!shoff)
		return 0;
	/* Many sections: the counts live in section 0. */
	if (!shnum || shstrndx == SHN_XINDEX) {
		err = read_shdr(r, shoff, entsize, 0, &sh);
		if (err)
			return err;
		if (!shnum)
			shnum = sh.size;
		if (shstrndx == SHN_XINDEX)
			shstrndx = sh.link;
	}
	err = read_shdr(r, shoff, entsize, shstrndx, &strsh);
	if (err)
		return err;
	if (strsh.size > (64u << 20))
		return -ENOEXEC;
	names = mmf_xmalloc(strsh.size + 1);
	err = read_at(r->fd, names, strsh.size, strsh.offset);
	names[strsh.size] = '\0';
	for (uint64_t i = 1; !err && i < shnum && !e->debug_line; i++) {
		err = read_shdr(r, shoff, entsize, i, &sh);
		if (!err && sh.type != SHT_NOBITS && sh.name < strsh.size)
			e->debug_line = is_line_table(names + sh.name);
	}
	free(names);
	return err;
}

const char *mmf_sym_elf_cross(const struct sym_elf *e)
{
#if defined(__x86_64__)
	if (e->machine == EM_AARCH64)
		return "aarch64-linux-gnu-";
#elif defined(__aarch64__)
	if (e->machine == EM_X86_64)
		return "x86_64-linux-gnu-";
#endif
	return "";
}

int mmf_sym_elf_probe(const char *path, struct sym_elf *e)
{
	struct reader r = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	int err;

	memset(e, 0, sizeof(*e));
	if (r.fd < 0)
		return -errno;
	err = probe(&r, e);
	close(r.fd);
	return err;
}
