// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/kallsyms: a pure parser of its text and address lookups.  The
 * names are kept in one copy of the text, NUL-terminated in place and
 * named by their offset in it; the symbols sorted by address, one per
 * address, each ending where the next one starts.  The table of a boot
 * is kept between runs as a file that is mapped, not parsed again.  And
 * the running kernel's build id, from its ELF notes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <perfev/symbols.h>
#include "common/internal.h"
#include "symbols/symtab.h"
#include "symbols/symbolizer-internal.h"

#define NO_MODULE UINT32_MAX

/* One symbol; also the layout of the kept table's entries. */
struct kentry {
	uint64_t addr;
	uint32_t name, module; /* offsets in the text; module NO_MODULE: the kernel's */
	uint32_t seq;	       /* the line's place in the text */
	char type;
	char pad[3];
};

struct perfev_kallsyms {
	char *text;
	size_t text_len; /* ends in a NUL */
	struct kentry *v;
	size_t n;
	/* Symbols another one at their address hid: still found by name. */
	struct kentry *alias;
	size_t nalias;
	void *map; /* the kept table all the above lies in, or NULL */
	size_t map_len;
};

/* The string at @off of the text; NULL past it (a kept table gone bad). */
static const char *str_at(const struct perfev_kallsyms *k, uint32_t off)
{
	return off < k->text_len ? k->text + off : NULL;
}

/* The types perf keeps: text, weak, data, bss (either case). */
static bool kept(char t)
{
	t = (char)(t & ~0x20);
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static int cmp_addr(const void *x, const void *y)
{
	const struct kentry *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* Among equals, the text's order. */
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* One line of @text, NUL-terminated in place: "ADDR TYPE NAME[\t[MODULE]]". */
static bool parse_line(const char *text, char *line, struct kentry *e)
{
	char *p = line, *end, *name, *mod;
	uint64_t addr = 0;
	int digits = 0;

	for (; *p && *p != ' '; p++, digits++) {
		char c = *p;
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return false;
		if (digits >= 16)
			return false;
		addr = addr << 4 | d;
	}
	if (!digits || p[0] != ' ' || !p[1] || p[2] != ' ' || !p[3])
		return false;
	e->addr = addr;
	e->type = p[1];
	name = p + 3;
	end = name + strcspn(name, " \t");
	mod = NULL;
	if (*end) {
		*end = '\0';
		mod = end + 1 + strspn(end + 1, " \t");
		if (*mod == '[') {
			char *close = strchr(mod, ']');

			if (!close)
				return false;
			*close = '\0';
			mod++;
		} else {
			mod = NULL;
		}
	}
	if (!*name)
		return false;
	e->name = (uint32_t)(name - text);
	e->module = mod && *mod ? (uint32_t)(mod - text) : NO_MODULE;
	return true;
}

int perfev_kallsyms_parse(const char *text, size_t len, struct perfev_kallsyms **out)
{
	struct perfev_kallsyms *k;
	size_t cap = 0, acap = 0, i, j;
	char *p, *nl;

	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	/* Offsets are 32 bits, one of them meaning none. */
	if (len >= NO_MODULE)
		return -E2BIG;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->text = malloc(len + 1);
	if (!k->text) {
		free(k);
		return -ENOMEM;
	}
	if (len)
		memcpy(k->text, text, len);
	k->text[len] = '\0';
	k->text_len = len + 1;
	for (p = k->text; p < k->text + len; p = nl + 1) {
		struct kentry e = {0};

		nl = memchr(p, '\n', (size_t)(k->text + len - p));
		if (!nl)
			nl = k->text + len;
		*nl = '\0';
		if (!parse_line(k->text, p, &e) || !kept(e.type) || !e.addr)
			continue;
		if (perfev__grow(&k->v, &cap, k->n + 1, sizeof(*k->v))) {
			perfev_kallsyms_free(k);
			return -ENOMEM;
		}
		e.seq = (uint32_t)k->n;
		k->v[k->n++] = e;
	}
	/* kallsyms comes mostly sorted: sort only when it is not. */
	for (i = 1; i < k->n && k->v[i - 1].addr <= k->v[i].addr; i++)
		;
	if (i < k->n)
		qsort(k->v, k->n, sizeof(*k->v), cmp_addr);
	/*
	 * One symbol per address: the last of each run.  kallsyms has no
	 * sizes; as perf, each symbol ends where the next line's begins, so
	 * all but the last of several at one address are empty, and perf's
	 * choice among aliases prefers a symbol with a size to any other rule.
	 */
	for (i = 0, j = 0; i < k->n; i++) {
		if (j && k->v[j - 1].addr == k->v[i].addr) {
			if (perfev__grow(&k->alias, &acap, k->nalias + 1, sizeof(*k->alias))) {
				perfev_kallsyms_free(k);
				return -ENOMEM;
			}
			k->alias[k->nalias++] = k->v[j - 1];
			k->v[j - 1] = k->v[i];
			continue;
		}
		k->v[j++] = k->v[i];
	}
	k->n = j;
	*out = k;
	return 0;
}

/* The text of PROCFS_ROOT/kallsyms (NULL root: /proc) into a fresh *@buf: its length or -errno. */
static ssize_t read_kallsyms(const char *procfs_root, char **buf)
{
	char path[4096];
	int err;

	err = perfev__path(path, sizeof(path), procfs_root ? procfs_root : "/proc", "/kallsyms");
	if (err)
		return err;
	return perfev__read_file(path, buf, (size_t)1 << 30);
}

int perfev__kallsyms_load_file(const char *path, struct perfev_kallsyms **out)
{
	char *buf = NULL;
	ssize_t n;
	int err;

	if (!out)
		return -EINVAL;
	n = perfev__read_file(path, &buf, (size_t)1 << 30);
	if (n < 0)
		return (int)n;
	err = perfev_kallsyms_parse(buf, (size_t)n, out);
	free(buf);
	return err;
}

int perfev_kallsyms_load(const char *procfs_root, struct perfev_kallsyms **out)
{
	char path[4096];
	int err;

	err = perfev__path(path, sizeof(path), procfs_root ? procfs_root : "/proc", "/kallsyms");
	return err ? err : perfev__kallsyms_load_file(path, out);
}

void perfev_kallsyms_free(struct perfev_kallsyms *k)
{
	if (!k)
		return;
	if (k->map) {
		munmap(k->map, k->map_len);
	} else {
		free(k->alias);
		free(k->v);
		free(k->text);
	}
	free(k);
}

size_t perfev_kallsyms_count(const struct perfev_kallsyms *k)
{
	return k ? k->n : 0;
}

int perfev_kallsyms_find(const struct perfev_kallsyms *k, uint64_t addr, struct perfev_ksym *out)
{
	size_t lo = 0, hi;
	const struct kentry *e;

	if (!k || !out)
		return -EINVAL;
	hi = k->n;
	/* The last symbol starting at or before @addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	e = &k->v[lo - 1];
	out->name = str_at(k, e->name);
	out->module = e->module == NO_MODULE ? NULL : str_at(k, e->module);
	if (!out->name || (e->module != NO_MODULE && !out->module))
		return -ENOENT;
	/* The last symbol of the kernel proper has no known end. */
	out->start = e->addr;
	out->size = lo < k->n ? k->v[lo].addr - e->addr : 0;
	return 0;
}

/* A function of the kernel itself (not of a module) called @name, among hidden aliases too. */
int perfev__kallsyms_addr(const struct perfev_kallsyms *k, const char *name, uint64_t *addr)
{
	size_t i;

	for (i = 0; i < k->n + k->nalias; i++) {
		const struct kentry *e = i < k->n ? &k->v[i] : &k->alias[i - k->n];
		const char *s = str_at(k, e->name);
		char t = (char)(e->type & ~0x20);

		if (e->module == NO_MODULE && (t == 'T' || t == 'W') && s && !strcmp(s, name)) {
			*addr = e->addr;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * The GNU build id among ELF notes (@len bytes: each a header of name
 * size, description size and type, the name and the description each
 * padded to 4 bytes): where it is in @buf, and its length; -ENOENT.
 */
static int notes_build_id(const unsigned char *buf, size_t len, const unsigned char **id)
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t desc_off, next;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		if (namesz > len || descsz > len)
			return -ENOENT;
		desc_off = off + 12 + ((namesz + 3) & ~(size_t)3);
		next = desc_off + ((descsz + 3) & ~(size_t)3);
		if (next > len)
			return -ENOENT;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(buf + off + 12, "GNU", 4) && descsz) {
			*id = buf + desc_off;
			return (int)descsz;
		}
		off = next;
	}
	return -ENOENT;
}

int perfev_kernel_build_id(const char *sysfs_root, void *id, size_t len)
{
	const unsigned char *p;
	char path[4096], *buf;
	ssize_t n;
	int err;

	if (!id && len)
		return -EINVAL;
	err = perfev__path(path, sizeof(path), sysfs_root ? sysfs_root : "/sys", "/kernel/notes");
	if (err)
		return err;
	n = perfev__read_file(path, &buf, (size_t)1 << 20);
	if (n < 0)
		return (int)n;
	err = notes_build_id((const unsigned char *)buf, (size_t)n, &p);
	if (err > 0 && (size_t)err > len)
		err = -ERANGE;
	else if (err > 0)
		memcpy(id, p, (size_t)err);
	free(buf);
	return err;
}

/* FNV-1a of @len bytes of @p, continuing @h. */
static uint64_t fnv(uint64_t h, const char *p, size_t len)
{
	while (len--)
		h = (h ^ (unsigned char)*p++) * 1099511628211ULL;
	return h;
}

/* FNV-1a of the fields @keep (a bit per whitespace-separated field) of each line of @p. */
static uint64_t fnv_fields(uint64_t h, const char *p, size_t len, unsigned int keep)
{
	const char *end = p + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		unsigned int field = 0;

		while (p < le) {
			const char *f;

			while (p < le && (*p == ' ' || *p == '\t'))
				p++;
			f = p;
			while (p < le && *p != ' ' && *p != '\t')
				p++;
			if (p > f && field < 32 && (keep & (1U << field)))
				h = fnv(fnv(h, f, (size_t)(p - f)), " ", 1);
			field++;
		}
		h = fnv(h, "\n", 1);
		p = le + 1;
	}
	return h;
}

/*
 * The name of the copy for this boot and these modules: a hash of the
 * boot id and of each module's name, size and load address in
 * PROCFS_ROOT/modules (not its use count or state, which change).
 */
static int cache_name(const char *procfs_root, char *out, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	char path[4096], *buf;
	ssize_t n;
	int err;

	err = perfev__path(path, sizeof(path), procfs_root ? procfs_root : "/proc",
			   "/sys/kernel/random/boot_id");
	if (err)
		return err;
	n = perfev__read_file(path, &buf, 4096);
	if (n < 0)
		return (int)n;
	h = fnv(h, buf, (size_t)n);
	free(buf);
	err = perfev__path(path, sizeof(path), procfs_root ? procfs_root : "/proc", "/modules");
	if (err)
		return err;
	n = perfev__read_file(path, &buf, (size_t)16 << 20);
	/* A kernel built without modules has no modules file. */
	if (n == -ENOENT) {
		h = fnv(h, "-", 1);
	} else if (n < 0) {
		return (int)n;
	} else {
		/* "name size refcount deps state address": fields 0, 1 and 5. */
		h = fnv_fields(h, buf, (size_t)n, 1U << 0 | 1U << 1 | 1U << 5);
		free(buf);
	}
	snprintf(out, len, "kallsyms-%016llx.tab", (unsigned long long)h);
	return 0;
}

/*
 * The kept table: a header, the entries by address, the hidden aliases,
 * then the names, all as this machine lays them out in memory.  Mapped
 * as it is; the offsets are checked at each use.
 */
#define KEPT_MAGIC "PEVKSYM1"

struct kept_hdr {
	char magic[8];
	uint64_t n, nalias, text_len;
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * @k's names and modules packed into @blob (each module once, as its
 * symbols come together), the entries rewritten to their offsets there.
 */
static size_t pack_names(const struct perfev_kallsyms *k, struct kentry *v, size_t n, char *blob,
			 size_t used)
{
	uint32_t last_mod = NO_MODULE, packed_mod = NO_MODULE;
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(k->text + v[i].name) + 1;
		memcpy(blob + used, k->text + v[i].name, len);
		v[i].name = (uint32_t)used;
		used += len;
		if (v[i].module == NO_MODULE)
			continue;
		if (last_mod == NO_MODULE || strcmp(k->text + last_mod, k->text + v[i].module)) {
			last_mod = v[i].module;
			len = strlen(k->text + last_mod) + 1;
			memcpy(blob + used, k->text + last_mod, len);
			packed_mod = (uint32_t)used;
			used += len;
		}
		v[i].module = packed_mod;
	}
	return used;
}

/* Write @k as @name in @dirfd; failures are left unsaid. */
static void kept_write(int dirfd, const char *name, const struct perfev_kallsyms *k)
{
	struct kept_hdr h = {.magic = KEPT_MAGIC, .n = k->n, .nalias = k->nalias};
	struct kentry *v;
	char tmp[128], *blob;
	int fd;

	v = malloc((k->n + k->nalias + 1) * sizeof(*v));
	blob = malloc(k->text_len);
	if (!v || !blob)
		goto out;
	memcpy(v, k->v, k->n * sizeof(*v));
	if (k->nalias)
		memcpy(v + k->n, k->alias, k->nalias * sizeof(*v));
	/* Names never take more room than in the text they come from. */
	h.text_len = pack_names(k, v, k->n + k->nalias, blob, 0);
	fd = perfev__tmp_at(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		goto out;
	if (write_all(fd, &h, sizeof(h)) || write_all(fd, v, (k->n + k->nalias) * sizeof(*v)) ||
	    write_all(fd, blob, h.text_len)) {
		close(fd);
		unlinkat(dirfd, tmp, 0);
		goto out;
	}
	perfev__commit_at(dirfd, fd, tmp, name);
out:
	free(v);
	free(blob);
}

/* The table kept as @name in @dirfd, mapped: 0, or -errno when there is none fit to use. */
static int kept_load(int dirfd, const char *name, struct perfev_kallsyms **out)
{
	struct perfev_kallsyms *k;
	struct kept_hdr h;
	struct stat st;
	uint64_t need;
	void *map;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < sizeof(h) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
		close(fd);
		return -EBADMSG;
	}
	need = sizeof(h);
	if (memcmp(h.magic, KEPT_MAGIC, sizeof(h.magic)) || !h.n || h.n > (uint64_t)st.st_size ||
	    h.nalias > (uint64_t)st.st_size || !h.text_len || h.text_len >= NO_MODULE ||
	    need + (h.n + h.nalias) * sizeof(struct kentry) + h.text_len != (uint64_t)st.st_size) {
		close(fd);
		return -EBADMSG;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	k = calloc(1, sizeof(*k));
	if (!k) {
		munmap(map, (size_t)st.st_size);
		return -ENOMEM;
	}
	k->map = map;
	k->map_len = (size_t)st.st_size;
	k->v = (struct kentry *)((char *)map + sizeof(h));
	k->n = (size_t)h.n;
	k->alias = k->v + k->n;
	k->nalias = (size_t)h.nalias;
	k->text = (char *)(k->alias + k->nalias);
	k->text_len = (size_t)h.text_len;
	/* Each name found ends inside the text. */
	if (k->text[k->text_len - 1]) {
		perfev_kallsyms_free(k);
		return -EBADMSG;
	}
	*out = k;
	return 0;
}

/*
 * Keep the table of @text as @name in @dirfd, without the lines of BPF
 * programs, which come and go while the boot and the modules stay;
 * failures are left unsaid.  Then remove the tables of other boots and
 * module sets.
 */
static void cache_write(int dirfd, const char *name, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct perfev_kallsyms *k;
	struct dirent *e;
	size_t used = 0;
	char *kept;
	DIR *d;
	int dfd;

	kept = malloc(len + 1);
	if (!kept)
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl + 1 : end) - p);

		if (!(n >= 7 && !memcmp(p + n - (nl ? 7 : 6), "\t[bpf]", 6))) {
			memcpy(kept + used, p, n);
			used += n;
		}
		p += n;
	}
	if (!perfev_kallsyms_parse(kept, used, &k)) {
		if (k->n)
			kept_write(dirfd, name, k);
		perfev_kallsyms_free(k);
	}
	free(kept);
	dfd = dup(dirfd);
	d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "kallsyms-", 9) && strcmp(e->d_name, name))
			unlinkat(dirfd, e->d_name, 0);
	closedir(d);
}

int perfev__kallsyms_load_cached(const char *procfs_root, int cache_fd,
				 struct perfev_kallsyms **out)
{
	char name[64], *buf = NULL;
	ssize_t n;
	int err;

	if (!out)
		return -EINVAL;
	if (cache_fd < 0 || cache_name(procfs_root, name, sizeof(name)))
		return perfev_kallsyms_load(procfs_root, out);
	if (!kept_load(cache_fd, name, out))
		return 0;
	n = read_kallsyms(procfs_root, &buf);
	if (n < 0)
		return (int)n;
	err = perfev_kallsyms_parse(buf, (size_t)n, out);
	/* Hidden addresses (all zero) give no symbols: nothing worth keeping. */
	if (!err && perfev_kallsyms_count(*out))
		cache_write(cache_fd, name, buf, (size_t)n);
	free(buf);
	return err;
}
