// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The other way round from the symbolizer: the address of a symbol
 * named by the user (perfev watch's SYMBOL), and the load bias that
 * turns an address of the file into one of a running process.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>
#include <perfev/symbols.h>

/* The ELF handle of @path in *@elf, its descriptor returned; -errno. */
static int elf_open(const char *path, Elf **elf)
{
	int fd;

	if (!path)
		return -EINVAL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENODATA;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		elf_end(*elf);
		close(fd);
		return -ENODATA;
	}
	return fd;
}

/* Does @have (a table's name) name @want, also as "WANT@VERSION" in .dynsym? */
static bool name_matches(const char *have, const char *want, bool dynsym)
{
	size_t n = strlen(want);

	if (strncmp(have, want, n))
		return false;
	return !have[n] || (dynsym && have[n] == '@');
}

/*
 * Look @name up in the symbol table @scn: 1 found (in *out), 0 not
 * there, -EOPNOTSUPP for a thread-local symbol.
 */
static int scan_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
		      struct perfev_elf_symbol *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n, i;

	if (!data || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *s;
		int type;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT &&
		    type != STT_TLS && type != STT_NOTYPE)
			continue;
		s = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!s || !name_matches(s, name, sh->sh_type == SHT_DYNSYM))
			continue;
		if (type == STT_TLS)
			return -EOPNOTSUPP;
		out->vaddr = sym.st_value;
		out->size = sym.st_size;
		out->func = type == STT_FUNC || type == STT_GNU_IFUNC;
		out->dynsym = sh->sh_type == SHT_DYNSYM;
		return 1;
	}
	return 0;
}

int perfev_elf_symbol_find(const char *path, const char *name, struct perfev_elf_symbol *out)
{
	Elf_Scn *scn = NULL, *dynsym = NULL;
	GElf_Shdr sh, dynsh;
	bool have_symtab = false;
	Elf *elf;
	int fd, ret = 0;

	if (!name || !*name || !out)
		return -EINVAL;
	fd = elf_open(path, &elf);
	if (fd < 0)
		return fd;
	memset(out, 0, sizeof(*out));
	while ((scn = elf_nextscn(elf, scn)) && !ret) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsh = sh;
		} else if (sh.sh_type == SHT_SYMTAB) {
			have_symtab = true;
			ret = scan_table(elf, scn, &sh, name, out);
		}
	}
	if (!ret && dynsym)
		ret = scan_table(elf, dynsym, &dynsh, name, out);
	if (!ret)
		ret = have_symtab ? -ENOENT : -ENOKEY;
	elf_end(elf);
	close(fd);
	return ret < 0 ? ret : 0;
}

int perfev_elf_load_bias(const char *path, uint64_t map_start, uint64_t map_pgoff, uint64_t *bias)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	size_t n, i;
	Elf *elf;
	int fd, ret = -ERANGE;

	if (!bias)
		return -EINVAL;
	fd = elf_open(path, &elf);
	if (fd < 0)
		return fd;
	if (elf_getphdrnum(elf, &n))
		n = 0;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* The mapping starts at the page holding the segment's first byte. */
		if (map_pgoff < (ph.p_offset & ~(page - 1)) ||
		    map_pgoff >= ph.p_offset + (ph.p_filesz ? ph.p_filesz : 1))
			continue;
		/* An address v of the segment is at offset v - p_vaddr + p_offset. */
		*bias = map_start - map_pgoff + ph.p_offset - ph.p_vaddr;
		ret = 0;
		break;
	}
	elf_end(elf);
	close(fd);
	return ret;
}
