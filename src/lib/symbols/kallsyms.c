// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/kallsyms: a pure parser of its text and address lookups.  The
 * names are kept in one copy of the text, NUL-terminated in place; the
 * symbols sorted by address, one per address, each ending where the next
 * one starts.  And the running kernel's build id, from its ELF notes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <perfev/symbols.h>
#include "common/internal.h"
#include "symbols/symtab.h"
#include "symbols/symbolizer-internal.h"

struct kentry {
	uint64_t addr;
	const char *name, *module;
	size_t seq; /* the line's place in the text */
	char type;
};

struct perfev_kallsyms {
	char *text;
	struct kentry *v;
	size_t n;
	/* Symbols another one at their address hid: still found by name. */
	struct kentry *alias;
	size_t nalias;
};

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

/* One line, NUL-terminated in place: "ADDR TYPE NAME[\t[MODULE]]". */
static bool parse_line(char *line, struct kentry *e)
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
	e->name = name;
	e->module = mod && *mod ? mod : NULL;
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
	for (p = k->text; p < k->text + len; p = nl + 1) {
		struct kentry e;

		nl = memchr(p, '\n', (size_t)(k->text + len - p));
		if (!nl)
			nl = k->text + len;
		*nl = '\0';
		if (!parse_line(p, &e) || !kept(e.type) || !e.addr)
			continue;
		if (perfev__grow(&k->v, &cap, k->n + 1, sizeof(*k->v))) {
			perfev_kallsyms_free(k);
			return -ENOMEM;
		}
		e.seq = k->n;
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
	free(k->alias);
	free(k->v);
	free(k->text);
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
	/* The last symbol of the kernel proper has no known end. */
	out->name = e->name;
	out->module = e->module;
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
		char t = (char)(e->type & ~0x20);

		if (!e->module && (t == 'T' || t == 'W') && !strcmp(e->name, name)) {
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
	snprintf(out, len, "kallsyms-%016llx", (unsigned long long)h);
	return 0;
}

/*
 * Keep @text as @name in @dirfd, without the lines of BPF programs,
 * which come and go while the boot and the modules stay; failures are
 * left unsaid.  Then remove the copies of other boots and module sets.
 */
static void cache_write(int dirfd, const char *name, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char tmp[128];
	struct dirent *e;
	DIR *d;
	int fd, dfd;

	fd = perfev__tmp_at(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl + 1 : end) - p), done;

		if (!(n >= 7 && !memcmp(p + n - (nl ? 7 : 6), "\t[bpf]", 6))) {
			for (done = 0; done < n;) {
				ssize_t w = write(fd, p + done, n - done);

				if (w <= 0) {
					close(fd);
					unlinkat(dirfd, tmp, 0);
					return;
				}
				done += (size_t)w;
			}
		}
		p += n;
	}
	if (perfev__commit_at(dirfd, fd, tmp, name))
		return;
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
	n = perfev__read_at(cache_fd, name, &buf, (size_t)1 << 30);
	if (n >= 0) {
		err = perfev_kallsyms_parse(buf, (size_t)n, out);
		free(buf);
		if (!err && perfev_kallsyms_count(*out))
			return 0;
		if (!err)
			perfev_kallsyms_free(*out);
		*out = NULL;
	}
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
