// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DWARF unwinding of sampled user stacks with elfutils' libdwfl.
 *
 * One Dwfl per address space, attached once (dwfl_attach_state) with
 * thread callbacks that read the sample being unwound: its registers and
 * its stack copy.  The space's file-backed maps become modules, reported
 * with dwfl_report_module() at the bias their program headers give; each
 * module's ELF is opened only when the unwinder first needs its CFI, by
 * our find_elf callback, from a private mapping of the file (no
 * descriptor stays open, and libelf may write to its copy).  A new
 * generation of the space re-reports: modules already there are claimed
 * again by name and range, so their CFI stays parsed; the others go.
 * A file's separate debug file is looked for only when it has no
 * .eh_frame (see find_debuginfo()).
 *
 * libdwfl's walk (dwfl_getthread_frames()) costs about 0.35 us a frame:
 * it evaluates each register's rule as a DWARF expression, with a
 * malloc or two apiece.  So samples are walked first with rules cached
 * per pc of each file (shared by all processes mapping it), read once
 * from the CFI row libdw finds (dwarf_cfi_addrframe() on the module's
 * .eh_frame, then .debug_frame, as libdwfl looks) and applied the way
 * libdwfl's handle_cfi() applies them: the same frames, reads and stops,
 * for a tenth of the time.  A frame the rules do not cover (no CFI there,
 * a DWARF expression, a signal frame) sends the sample back to libdwfl,
 * from its first frame.  perfev__unwinder_set_libdwfl_only() turns the
 * rules off; the tests compare the two walks sample by sample.
 *
 * libdwfl 0.188 facts this relies on (checked against it):
 *  - re-reporting a module through dwfl_report_elf() fails (its file is
 *    opened again and taken for another: DWFL_E_OVERLAP) and drops it;
 *    dwfl_report_module() with the same name and range keeps it;
 *  - dwfl_attach_state() with a NULL Elf borrows the backend of the first
 *    module, freed with it when a new report drops that module: we pass
 *    an ELF header of our own for the architecture;
 *  - a return address that cannot be read (stack copy too short) makes
 *    the unwind end as cleanly as the outermost frame: reads that fail
 *    are noted here to tell the two apart;
 *  - where no CFI covers a pc, the x86_64 backend follows the frame
 *    pointer, so frames without CFI may still be found;
 *  - dwfl_standard_find_debuginfo() asks debuginfod when DEBUGINFOD_URLS
 *    is set: a network fetch in the middle of a walk (and loads
 *    libdebuginfod when it is not: perfev__find_debuginfo() does not).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>
#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif
#include "common/internal.h"
#include "symbols/symbolizer-internal.h"
#include "symbols/unwind.h"

/* Spaces kept at once; the least recently used is dropped for a new one. */
#define MAX_SPACES 256
/* A failed read this far above the stack copy is taken for a copy too short. */
#define SHORT_SLACK (1U << 20)
/* Longest build id compared. */
#define BUILD_ID_MAX 20
/* Bigger than any vDSO: a header claiming more is not trusted. */
#define VDSO_MAX  (1U << 20)
#define VDSO_PATH "[vdso]"
/* DWARF registers of x86_64 that libdwfl unwinds: rax..r15, then rip. */
#define NREGS 17
/*
 * Unwind rules kept: one per pc of a file, found through a direct-mapped
 * table of indexes (64 KiB) into an array filled in order of first use,
 * so that the rules a profile keeps using sit together.
 */
#define RULE_BITS  14
#define RULE_SLOTS (1U << RULE_BITS)

/* A loadable segment of a file. */
struct seg {
	uint64_t off, filesz, vaddr;
	bool writable;
};

/* A file as maps name it (path and the build id they give), read once. */
struct file {
	char *path;
	uint8_t id[BUILD_ID_MAX];
	size_t id_len;
	char *modname;	 /* unique among files: the path, with the build id when told */
	char *open_path; /* the file read: @path, or a copy with the right build id */
	int err;	 /* why it is not used, or 0 */
	bool vdso;
	bool eh_frame; /* it has .eh_frame: its debug file is not looked for */
	struct seg *segs;
	size_t nsegs;
	uint64_t lo, hi; /* the module's span, before the bias, as libdwfl computes it */
	/* What was read, so a file replaced since is not taken for it. */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

/* A module of a space: a file at a bias. */
struct mod {
	struct perfev__unwinder *u;
	struct file *file;
	uint64_t bias, lo, hi;
	Dwfl_Module *dm;
	void *image; /* the file's private mapping (or vDSO copy), once opened */
	size_t image_size;
	bool mapped; /* @image is a mapping (else malloc'd) */
	bool live;   /* reported in the current generation */
};

/*
 * How to unwind a frame at one pc of one file, from its CFI row: the CFA a
 * register plus an offset, each register undefined, the same, saved at
 * CFA + offset, equal to CFA + offset, or another register.  Rows that
 * need more (DWARF expressions, signal frames) and pcs without CFI are
 * marked SLOW: libdwfl walks those samples itself.
 */
enum rule_kind { RULE_UNDEF, RULE_SAME, RULE_AT_CFA, RULE_CFA_PLUS, RULE_REG };

/* The rule of one register that is neither undefined nor the same. */
struct rule_reg {
	uint8_t reg, kind;
	int32_t arg; /* the offset, or the register for RULE_REG */
};

struct rule {
	const struct file *file;
	uint64_t rel_pc; /* the pc in the file's addresses (minus the load bias) */
	bool slow;
	bool cfa_undefined;
	uint8_t cfa_reg, ra;
	int32_t cfa_off;
	uint32_t same;		     /* the registers RULE_SAME */
	uint32_t nregs;		     /* in @regs, by register number */
	struct rule_reg regs[NREGS]; /* the others not RULE_UNDEF */
};

struct space {
	const void *key;
	uint64_t generation;
	bool reported;
	Dwfl *dwfl;
	struct mod **mods; /* sorted by address */
	size_t nmods, cap;
	uint64_t used; /* the unwinder's tick at the last use */
};

/* The sample being unwound, read by the callbacks. */
struct cur {
	struct space *sp;
	const struct perfev__unwind_space *space;
	uint64_t regs[NREGS];
	uint32_t regs_set; /* bit per DWARF register */
	const uint8_t *stack;
	size_t stack_size;
	uint64_t sp_addr;
	uint64_t *ips;
	size_t max, n;
	bool full, zero_pc, pc_failed;
	bool read_failed; /* since the last frame */
	uint64_t failed_addr;
};

struct perfev__unwinder {
	struct space **spaces; /* sorted by key */
	size_t nspaces, cap_spaces;
	struct space *last;
	struct file **files; /* sorted by path, then build id */
	size_t nfiles, cap_files;
	Dwfl_Callbacks callbacks;
	/* An ELF header for the architecture, whose backend libdwfl unwinds with. */
	Elf64_Ehdr arch_ehdr;
	Elf *arch_elf;
	const uint8_t *vdso; /* this process's vDSO image, or NULL */
	size_t vdso_size;
	char *buildid_dir; /* perf's build-id cache ($HOME/.debug), or NULL */
	uint64_t tick;
	struct cur cur;
	uint32_t *rule_slot; /* RULE_SLOTS indexes into @rules plus 1 (0: empty), or NULL */
	struct rule *rules;
	size_t nrules, rules_cap;
	bool libdwfl_only; /* no rules: every sample walked by libdwfl */
	struct perfev__unwind_stats stats;
};

const char *perfev__unwind_stop_name(enum perfev__unwind_stop stop)
{
	static const char *const names[] = {
	    [PERFEV__UNWIND_END] = "end",
	    [PERFEV__UNWIND_NO_REGS] = "no user registers",
	    [PERFEV__UNWIND_NO_CFI] = "no cfi",
	    [PERFEV__UNWIND_SHORT] = "stack copy too short",
	    [PERFEV__UNWIND_UNMAPPED] = "unmapped address",
	    [PERFEV__UNWIND_MAX_DEPTH] = "max depth",
	    [PERFEV__UNWIND_ERROR] = "error",
	};

	if ((unsigned int)stop >= PERFEV__ARRAY_SIZE(names) || !names[stop])
		return "unknown";
	return names[stop];
}

/* ---- files ------------------------------------------------------------------ */

static void file_free(struct file *f)
{
	if (!f)
		return;
	free(f->path);
	free(f->modname);
	free(f->open_path);
	free(f->segs);
	free(f);
}

static int file_cmp(const char *path, const uint8_t *id, size_t id_len, const struct file *f)
{
	int c = strcmp(path, f->path);

	if (c)
		return c;
	if (id_len != f->id_len)
		return id_len < f->id_len ? -1 : 1;
	return id_len ? memcmp(id, f->id, id_len) : 0;
}

/* Whether the build id @bits (@len bytes) is the one @f was told; none told: yes. */
static bool id_matches(const struct file *f, const void *bits, ssize_t len)
{
	size_t i;

	if (!f->id_len)
		return true;
	if (len <= 0 || (size_t)len > f->id_len)
		return false;
	if (memcmp(bits, f->id, (size_t)len))
		return false;
	/* Records pad ids with zeros. */
	for (i = (size_t)len; i < f->id_len; i++)
		if (f->id[i])
			return false;
	return true;
}

/* Whether @elf has an .eh_frame section (with its header segment, or named so). */
static bool has_eh_frame(Elf *elf, size_t nph)
{
	Elf_Scn *scn = NULL;
	size_t i, shstrndx;

	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_GNU_EH_FRAME)
			return true;
	}
	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".eh_frame"))
			return true;
	}
	return false;
}

/* Note @elf's loadable segments and span in @f; 0, or -ENOEXEC for what is not unwound. */
static int file_parse(struct file *f, Elf *elf)
{
	GElf_Ehdr eh;
	size_t nph, i, cap = 0;
	bool first = true;
	const void *bits;
	ssize_t len;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return -ENOEXEC;
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN))
		return -ENOEXEC;
	if (elf_getphdrnum(elf, &nph))
		return -ENOEXEC;
	free(f->segs);
	f->segs = NULL;
	f->nsegs = 0;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* libdwfl's own span: the first segment's page, the last one's end. */
		if (first)
			f->lo = ph.p_vaddr & -ph.p_align;
		first = false;
		if (ph.p_vaddr + ph.p_memsz > 0)
			f->hi = ph.p_vaddr + ph.p_memsz;
		if (perfev__grow(&f->segs, &cap, f->nsegs + 1, sizeof(*f->segs)))
			return -ENOMEM;
		f->segs[f->nsegs].off = ph.p_offset;
		f->segs[f->nsegs].filesz = ph.p_filesz;
		f->segs[f->nsegs].vaddr = ph.p_vaddr;
		f->segs[f->nsegs].writable = ph.p_flags & PF_W;
		f->nsegs++;
	}
	if (!f->nsegs || f->hi <= f->lo)
		return -ENOEXEC;
	f->eh_frame = has_eh_frame(elf, nph);
	len = dwelf_elf_gnu_build_id(elf, &bits);
	if (!id_matches(f, bits, len))
		return -ESTALE;
	return 0;
}

/* Read @path's headers into @f: 0, -ENOEXEC, -ESTALE (another build) or open(2)'s errors. */
static int file_try(struct file *f, const char *path)
{
	struct stat st;
	Elf *elf;
	int fd, err;

	/* Not blocking on a FIFO, and only regular files. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = elf ? file_parse(f, elf) : -ENOEXEC;
	elf_end(elf);
	close(fd);
	if (err)
		return err;
	free(f->open_path);
	f->open_path = strdup(path);
	if (!f->open_path)
		return -ENOMEM;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->size = st.st_size;
	f->mtime = st.st_mtim;
	return 0;
}

/* The places a copy of @f with its build id may be: perf's build-id cache. */
static int file_try_copies(struct perfev__unwinder *u, struct file *f)
{
	static const char *const leaf[] = {"/elf", ""};
	char hex[2 * BUILD_ID_MAX + 1], path[4096];
	size_t i, len = f->id_len;
	int err = -ESTALE;

	/* Trailing zeros are padding, not part of the id. */
	while (len > 0 && !f->id[len - 1])
		len--;
	if (!u->buildid_dir || !len)
		return err;
	for (i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", f->id[i]);
	for (i = 0; i < PERFEV__ARRAY_SIZE(leaf); i++) {
		int n = snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s%s", u->buildid_dir, hex,
				 hex + 2, leaf[i]);

		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		if (!file_try(f, path))
			return 0;
	}
	return err;
}

static void file_load(struct perfev__unwinder *u, struct file *f)
{
	if (!strcmp(f->path, VDSO_PATH)) {
		Elf *elf;

		f->vdso = true;
		if (!u->vdso) {
			f->err = -ENOENT;
			return;
		}
		elf = elf_memory((char *)u->vdso, u->vdso_size);
		f->err = elf ? file_parse(f, elf) : -ENOEXEC;
		elf_end(elf);
		return;
	}
	f->err = file_try(f, f->path);
	if (f->err == -ESTALE || (f->err == -ENOENT && f->id_len))
		f->err = file_try_copies(u, f);
}

/* The file of the maps' @path and @id, read at its first use; NULL only without memory. */
static struct file *file_get(struct perfev__unwinder *u, const char *path, const uint8_t *id,
			     size_t id_len)
{
	size_t lo = 0, hi = u->nfiles, i;
	struct file *f;

	if (id_len > BUILD_ID_MAX || !id)
		id_len = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = file_cmp(path, id, id_len, u->files[mid]);

		if (!c)
			return u->files[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (perfev__grow(&u->files, &u->cap_files, u->nfiles + 1, sizeof(*u->files)))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	f->id_len = id_len;
	if (id_len)
		memcpy(f->id, id, id_len);
	if (id_len) {
		char hex[2 * BUILD_ID_MAX + 1];

		for (i = 0; i < id_len; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		if (asprintf(&f->modname, "%s@%s", path, hex) < 0)
			f->modname = NULL;
	} else {
		f->modname = strdup(path);
	}
	if (!f->modname) {
		file_free(f);
		return NULL;
	}
	file_load(u, f);
	if (f->err == -ENOMEM) {
		file_free(f);
		return NULL;
	}
	u->stats.files++;
	memmove(&u->files[lo + 1], &u->files[lo], (u->nfiles - lo) * sizeof(*u->files));
	u->files[lo] = f;
	u->nfiles++;
	return f;
}

/* ---- libdwfl callbacks ------------------------------------------------------- */

static void mod_unmap(struct mod *m)
{
	if (m->image && m->mapped)
		munmap(m->image, m->image_size);
	else
		free(m->image);
	m->image = NULL;
	m->image_size = 0;
}

/*
 * The ELF of a module: a private mapping of its file (or a copy of the
 * vDSO), checked to be the file whose headers were read.  No descriptor
 * is handed to libdwfl, so none stays open.
 */
static int find_elf(Dwfl_Module *dm, void **userdata, const char *modname, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	struct mod *m = *userdata;
	struct file *f;
	struct stat st;
	Elf *elf;
	int fd;

	*elfp = NULL;
	if (!m || m->image)
		return -1;
	f = m->file;
	if (f->vdso) {
		m->image = malloc(m->u->vdso_size);
		if (!m->image)
			return -1;
		memcpy(m->image, m->u->vdso, m->u->vdso_size);
		m->image_size = m->u->vdso_size;
		m->mapped = false;
	} else {
		fd = open(f->open_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_dev != f->dev ||
		    st.st_ino != f->ino || st.st_size != f->size ||
		    st.st_mtim.tv_sec != f->mtime.tv_sec ||
		    st.st_mtim.tv_nsec != f->mtime.tv_nsec) {
			close(fd);
			return -1;
		}
		/* Writable and private: libelf may change its copy (inflating sections). */
		m->image =
		    mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
		close(fd);
		if (m->image == MAP_FAILED) {
			m->image = NULL;
			return -1;
		}
		m->image_size = (size_t)st.st_size;
		m->mapped = true;
	}
	elf = elf_memory(m->image, m->image_size);
	if (!elf) {
		mod_unmap(m);
		return -1;
	}
	/* The debug link is looked for beside the file. */
	if (!*file_name && !f->vdso)
		*file_name = strdup(f->open_path);
	*elfp = elf;
	m->u->stats.elf_maps++;
	return -1;
}

/*
 * The separate debug file (build id under /usr/lib/debug, .gnu_debuglink)
 * of a file without .eh_frame, whose .debug_frame is then the only CFI.
 * A file with .eh_frame has its CFI there: libdw would inflate the whole
 * compressed debug file of each process that asks (libdwfl asks for
 * .debug_frame wherever .eh_frame has no row), for nothing more to unwind.
 */
static int find_debuginfo(Dwfl_Module *dm, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct mod *m = *userdata;

	if (!m || m->file->eh_frame)
		return -1;
	return perfev__find_debuginfo(dm, userdata, modname, base, file_name, debuglink_file,
				      debuglink_crc, debuginfo_file_name);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static const struct perfev__unwind_map *map_find(const struct perfev__unwind_space *space,
						 uint64_t addr)
{
	size_t lo = 0, hi = space->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct perfev__unwind_map *m = &space->maps[mid];

		if (addr < m->start)
			hi = mid;
		else if (addr >= m->end)
			lo = mid + 1;
		else
			return m;
	}
	return NULL;
}

static struct mod *mod_of(Dwfl_Module *dm)
{
	void **ud = NULL;

	if (!dm || !dwfl_module_info(dm, &ud, NULL, NULL, NULL, NULL, NULL, NULL) || !ud)
		return NULL;
	return *ud;
}

/*
 * Eight bytes at @addr from the file mapped there, from a segment that is
 * not writable (what the process may have changed is not in the file).
 */
static bool file_read(struct cur *c, uint64_t addr, uint64_t *out)
{
	const struct perfev__unwind_map *map = map_find(c->space, addr);
	Dwfl_Module *dm;
	struct mod *m;
	uint64_t off;
	Dwarf_Addr bias;
	size_t i;

	if (!map || !map->path || addr - map->start > UINT64_MAX - map->pgoff)
		return false;
	dm = dwfl_addrmodule(c->sp->dwfl, addr);
	m = mod_of(dm);
	if (!m || (m->file->vdso ? strcmp(map->path, VDSO_PATH) : strcmp(map->path, m->file->path)))
		return false;
	if (!m->image && !dwfl_module_getelf(dm, &bias))
		return false;
	if (!m->image)
		return false;
	off = addr - map->start + map->pgoff;
	for (i = 0; i < m->file->nsegs; i++) {
		const struct seg *s = &m->file->segs[i];

		if (s->writable || off < s->off || off - s->off >= s->filesz ||
		    s->filesz - (off - s->off) < 8)
			continue;
		if (off > m->image_size || m->image_size - off < 8)
			return false;
		memcpy(out, (const uint8_t *)m->image + off, 8);
		return true;
	}
	return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct cur *c = arg;
	uint64_t off = addr - c->sp_addr;

	if (addr >= c->sp_addr && off < c->stack_size && c->stack_size - off >= 8) {
		memcpy(result, c->stack + off, 8);
		return true;
	}
	if (file_read(c, addr, result))
		return true;
	c->read_failed = true;
	c->failed_addr = addr;
	return false;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct cur *c = arg;
	int r;

	/* One by one: a register the sample lacks stays unknown to the CFI. */
	for (r = 0; r < NREGS; r++)
		if ((c->regs_set & (1U << r)) &&
		    !dwfl_thread_state_registers(thread, r, 1, &c->regs[r]))
			return false;
	dwfl_thread_state_register_pc(thread, c->regs[NREGS - 1]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .get_thread = get_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct cur *c = arg;
	Dwarf_Addr pc;
	bool activation = false;

	/* Asking for @activation may unwind the next frame: failures from here on are its. */
	c->read_failed = false;
	if (!dwfl_frame_pc(frame, &pc, &activation)) {
		c->pc_failed = true;
		return DWARF_CB_ABORT;
	}
	/*
	 * The CFI's own end (an undefined or zero return address) never gets
	 * here: a zero is what the frame-pointer walk found where the CFI
	 * failed, and the frame before says why.
	 */
	if (!pc) {
		c->zero_pc = true;
		return DWARF_CB_ABORT;
	}
	c->ips[c->n++] = activation ? pc : pc - 1;
	if (c->n >= c->max) {
		c->full = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* ---- spaces ------------------------------------------------------------------ */

static void mod_free(struct mod *m)
{
	if (!m)
		return;
	mod_unmap(m);
	free(m);
}

static void space_free(struct space *sp)
{
	size_t i;

	if (!sp)
		return;
	/* The modules' ELF handles go with the Dwfl, before their images. */
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	for (i = 0; i < sp->nmods; i++)
		mod_free(sp->mods[i]);
	free(sp->mods);
	free(sp);
}

/* Index of @key in the sorted spaces, or where it goes (*found false). */
static size_t space_index(const struct perfev__unwinder *u, const void *key, bool *found)
{
	size_t lo = 0, hi = u->nspaces;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t k = (uintptr_t)u->spaces[mid]->key;

		if ((uintptr_t)key == k) {
			*found = true;
			return mid;
		}
		if ((uintptr_t)key < k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void space_remove_at(struct perfev__unwinder *u, size_t i)
{
	struct space *sp = u->spaces[i];

	if (u->last == sp)
		u->last = NULL;
	memmove(&u->spaces[i], &u->spaces[i + 1], (u->nspaces - i - 1) * sizeof(*u->spaces));
	u->nspaces--;
	space_free(sp);
}

static int space_get(struct perfev__unwinder *u, const void *key, uint32_t pid, struct space **out)
{
	struct space *sp;
	bool found;
	size_t i;

	if (u->last && u->last->key == key) {
		*out = u->last;
		return 0;
	}
	i = space_index(u, key, &found);
	if (found) {
		*out = u->last = u->spaces[i];
		return 0;
	}
	if (u->nspaces >= MAX_SPACES) {
		size_t j, old = 0;

		for (j = 1; j < u->nspaces; j++)
			if (u->spaces[j]->used < u->spaces[old]->used)
				old = j;
		space_remove_at(u, old);
		i = space_index(u, key, &found);
	}
	if (perfev__grow(&u->spaces, &u->cap_spaces, u->nspaces + 1, sizeof(*u->spaces)))
		return -ENOMEM;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	sp->key = key;
	sp->dwfl = dwfl_begin(&u->callbacks);
	/* Once per Dwfl: the callbacks read whatever sample u->cur holds. */
	if (!sp->dwfl ||
	    !dwfl_attach_state(sp->dwfl, u->arch_elf, (pid_t)pid, &thread_callbacks, &u->cur)) {
		space_free(sp);
		return -ENOMEM;
	}
	memmove(&u->spaces[i + 1], &u->spaces[i], (u->nspaces - i) * sizeof(*u->spaces));
	u->spaces[i] = sp;
	u->nspaces++;
	*out = u->last = sp;
	return 0;
}

/* Whether [lo, hi) overlaps a module reported in this generation. */
static bool overlaps_live(const struct space *sp, uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = 0; i < sp->nmods; i++) {
		const struct mod *m = sp->mods[i];

		if (m->live && lo < m->hi && m->lo < hi)
			return true;
	}
	return false;
}

/* The module of @f at @bias from the previous generation, or NULL. */
static struct mod *mod_find(const struct space *sp, const struct file *f, uint64_t bias)
{
	size_t i;

	for (i = 0; i < sp->nmods; i++)
		if (sp->mods[i]->file == f && sp->mods[i]->bias == bias)
			return sp->mods[i];
	return NULL;
}

/* At most this many segments of a file hold one map's offset (a shared page: two). */
#define MAX_CANDIDATES 4

/*
 * The load biases that would put @f's byte at file offset map->pgoff at
 * map->start: one per segment whose pages hold that offset.  Two
 * segments may share a page of the file (the end of one, the start of
 * the next), so a map may fit two biases.  Returns how many.
 */
static size_t map_biases(const struct file *f, const struct perfev__unwind_map *map, uint64_t *bias)
{
	size_t i, n = 0;

	for (i = 0; i < f->nsegs && n < MAX_CANDIDATES; i++) {
		const struct seg *s = &f->segs[i];
		uint64_t page_off = s->off & ~(uint64_t)4095;

		if (!s->filesz || map->pgoff < page_off ||
		    map->pgoff - page_off >= s->filesz + (s->off - page_off))
			continue;
		/* address(off) = bias + vaddr + (off - p_offset), and address(pgoff) = start */
		bias[n++] = map->start - map->pgoff + s->off - s->vaddr;
	}
	return n;
}

static int report_at(struct perfev__unwinder *u, struct space *sp, struct file *f, uint64_t bias,
		     const struct perfev__unwind_map *map)
{
	uint64_t lo = bias + f->lo, hi = bias + f->hi;
	struct mod *m;
	Dwfl_Module *dm;
	void **ud;

	if (hi <= lo || map->start < lo || map->start >= hi)
		return 0;
	m = mod_find(sp, f, bias);
	if (m && m->live)
		return 0; /* another map of the same module */
	if (overlaps_live(sp, lo, hi))
		return 0;
	dm = dwfl_report_module(sp->dwfl, f->modname, lo, hi);
	if (!dm)
		return -ENOMEM;
	if (m && dm == m->dm) {
		/* Claimed again by name and range: libdwfl keeps it, CFI and all. */
		m->live = true;
		return 0;
	}
	if (mod_of(dm))
		return 0; /* another record's module: cannot be, names are unique per file */
	if (perfev__grow(&sp->mods, &sp->cap, sp->nmods + 1, sizeof(*sp->mods)))
		return -ENOMEM;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->u = u;
	m->file = f;
	m->bias = bias;
	m->lo = lo;
	m->hi = hi;
	m->dm = dm;
	m->live = true;
	if (dwfl_module_info(dm, &ud, NULL, NULL, NULL, NULL, NULL, NULL) && ud)
		*ud = m;
	sp->mods[sp->nmods++] = m;
	u->stats.modules++;
	return 0;
}

/*
 * Report the module @map belongs to.  The first pass takes the maps that
 * fit one bias; the second, those that fit several, unless one of them is
 * already a module of the file.
 */
static int report_map(struct perfev__unwinder *u, struct space *sp,
		      const struct perfev__unwind_map *map, int pass)
{
	uint64_t bias[MAX_CANDIDATES];
	struct file *f;
	size_t n, i;

	if (!map->path || !map->path[0] || map->end <= map->start)
		return 0;
	if (map->path[0] != '/' && strcmp(map->path, VDSO_PATH))
		return 0;
	f = file_get(u, map->path, map->build_id, map->build_id_size);
	if (!f)
		return -ENOMEM;
	if (f->err)
		return 0;
	n = map_biases(f, map, bias);
	if (!n || (pass == 1) != (n == 1))
		return 0;
	for (i = 0; i < n; i++) {
		const struct mod *m = mod_find(sp, f, bias[i]);

		if (m && m->live)
			return 0;
	}
	return report_at(u, sp, f, bias[0], map);
}

static int mod_cmp(const void *a, const void *b)
{
	const struct mod *x = *(const struct mod *const *)a, *y = *(const struct mod *const *)b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Report the space's modules for its current generation. */
static int space_report(struct perfev__unwinder *u, struct space *sp,
			const struct perfev__unwind_space *space)
{
	size_t i, j;
	int err = 0;

	dwfl_report_begin(sp->dwfl);
	for (i = 0; i < sp->nmods; i++)
		sp->mods[i]->live = false;
	for (i = 0; i < space->nmaps && !err; i++)
		err = report_map(u, sp, &space->maps[i], 1);
	for (i = 0; i < space->nmaps && !err; i++)
		err = report_map(u, sp, &space->maps[i], 2);
	/* Modules not claimed again are freed here, and their ELF handles with them. */
	dwfl_report_end(sp->dwfl, NULL, NULL);
	for (i = j = 0; i < sp->nmods; i++) {
		if (sp->mods[i]->live)
			sp->mods[j++] = sp->mods[i];
		else
			mod_free(sp->mods[i]);
	}
	sp->nmods = j;
	qsort(sp->mods, sp->nmods, sizeof(*sp->mods), mod_cmp);
	u->stats.reports++;
	if (err)
		return err;
	sp->generation = space->generation;
	sp->reported = true;
	return 0;
}

/* ---- the walk from cached rules ------------------------------------------------- */

/* The module holding @addr, as dwfl_addrmodule() finds it: modules do not overlap. */
static struct mod *mod_at(const struct space *sp, uint64_t addr)
{
	size_t lo = 0, hi = sp->nmods;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct mod *m = sp->mods[mid];

		if (addr < m->lo)
			hi = mid;
		else if (addr >= m->hi)
			lo = mid + 1;
		else
			return m;
	}
	return NULL;
}

static bool fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/*
 * The rule of a CFI row, as libdwfl's handle_cfi() would apply it (it asks
 * dwarf_frame_register() for each of the NREGS registers); false for what
 * it does not cover.
 */
static bool rule_from_frame(Dwarf_Frame *frame, struct rule *r)
{
	Dwarf_Addr start, end;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	bool signal = false;
	int ra, i;

	ra = dwarf_frame_info(frame, &start, &end, &signal);
	if (ra < 0 || ra >= NREGS || signal)
		return false;
	r->ra = (uint8_t)ra;
	if (dwarf_frame_cfa(frame, &ops, &nops))
		return false;
	if (nops == 0) {
		r->cfa_undefined = true;
	} else if (nops == 1 && ops[0].atom == DW_OP_bregx && ops[0].number < NREGS &&
		   fits32((int64_t)ops[0].number2)) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int32_t)(int64_t)ops[0].number2;
	} else {
		return false;
	}
	for (i = 0; i < NREGS; i++) {
		struct rule_reg *g = &r->regs[r->nregs];

		if (dwarf_frame_register(frame, i, mem, &ops, &nops) || (nops == 0 && ops == mem)) {
			/* libdwfl leaves the register unknown after an error, as when undefined. */
			continue;
		} else if (nops == 0 && !ops) {
			r->same |= 1U << i;
			continue;
		} else if (nops == 1 && ops[0].atom == DW_OP_regx && ops[0].number < NREGS) {
			g->kind = RULE_REG;
			g->arg = (int32_t)ops[0].number;
		} else if (nops >= 1 && ops[0].atom == DW_OP_call_frame_cfa) {
			size_t k = 1;
			int64_t off = 0;

			if (k < nops && ops[k].atom == DW_OP_plus_uconst) {
				off = (int64_t)ops[k].number;
				k++;
			}
			g->kind = RULE_AT_CFA;
			if (k < nops && ops[k].atom == DW_OP_stack_value) {
				g->kind = RULE_CFA_PLUS;
				k++;
			}
			if (k != nops || !fits32(off))
				return false;
			g->arg = (int32_t)off;
		} else {
			return false;
		}
		g->reg = (uint8_t)i;
		r->nregs++;
	}
	return true;
}

/* The rule at @lookup (an address in @m), computed at its first use. */
static const struct rule *rule_get(struct perfev__unwinder *u, struct mod *m, uint64_t lookup)
{
	uint64_t rel = lookup - m->bias, h;
	uint32_t *slot;
	struct rule *r;
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame;
	Dwarf_Addr bias;
	bool found = false, ok = false;

	if (!u->rule_slot && !(u->rule_slot = calloc(RULE_SLOTS, sizeof(*u->rule_slot))))
		return NULL;
	h = (rel ^ ((uint64_t)(uintptr_t)m->file >> 4)) * 0x9e3779b97f4a7c15ULL;
	slot = &u->rule_slot[h >> (64 - RULE_BITS)];
	if (*slot) {
		r = &u->rules[*slot - 1];
		if (r->file == m->file && r->rel_pc == rel)
			return r;
	} else {
		/* A new slot takes the next rule: at most RULE_SLOTS of them. */
		if (perfev__grow(&u->rules, &u->rules_cap, u->nrules + 1, sizeof(*u->rules)))
			return NULL;
		*slot = (uint32_t)++u->nrules;
		r = &u->rules[*slot - 1];
	}
	memset(r, 0, offsetof(struct rule, regs));
	/* As libdwfl looks: .eh_frame first, then .debug_frame. */
	if ((cfi = dwfl_module_eh_cfi(m->dm, &bias)) &&
	    !dwarf_cfi_addrframe(cfi, lookup - bias, &frame)) {
		found = true;
		ok = rule_from_frame(frame, r);
		free(frame);
	}
	if (!found && (cfi = dwfl_module_dwarf_cfi(m->dm, &bias)) &&
	    !dwarf_cfi_addrframe(cfi, lookup - bias, &frame)) {
		ok = rule_from_frame(frame, r);
		free(frame);
	}
	/* No CFI here: libdwfl falls back on the frame pointer. */
	r->slow = !ok;
	r->file = m->file;
	r->rel_pc = rel;
	u->stats.rules++;
	return r;
}

/*
 * Walk the sample with the cached rules, frame by frame as libdwfl would,
 * with the same memory reads and the same frames out.  Returns 1 when
 * done (c->n and the flags set as the libdwfl walk leaves them; *@rc its
 * return), 0 when a frame needs libdwfl.
 */
static int walk_rules(struct perfev__unwinder *u, struct cur *c, int *rc)
{
	uint64_t regs[NREGS], next[NREGS], pc = c->regs[NREGS - 1], cfa = 0;
	uint32_t set = c->regs_set, nset, k;
	bool initial = true;

	/*
	 * A sample pc of 0 is no frame to libdwfl (frame_cb() stops there):
	 * its walk says so, even where @max would end this one first.
	 */
	if (!pc)
		return 0;
	memcpy(regs, c->regs, sizeof(regs));
	for (;;) {
		uint64_t lookup = initial ? pc : pc - 1;
		const struct rule *r;
		struct mod *m;
		bool cfa_ok;

		c->read_failed = false;
		c->ips[c->n++] = lookup;
		if (c->n >= c->max) {
			c->full = true;
			*rc = DWARF_CB_ABORT;
			return 1;
		}
		m = mod_at(c->sp, lookup);
		if (!m || !(r = rule_get(u, m, lookup)) || r->slow)
			return 0;
		cfa_ok = !r->cfa_undefined && (set & (1U << r->cfa_reg));
		if (cfa_ok)
			cfa = regs[r->cfa_reg] + (uint64_t)(int64_t)r->cfa_off;
		/* Undefined registers stay out of the set; the same keep their values. */
		memcpy(next, regs, sizeof(next));
		nset = set & r->same;
		for (k = 0; k < r->nregs; k++) {
			const struct rule_reg *g = &r->regs[k];
			uint64_t addr = cfa + (uint64_t)(int64_t)g->arg;

			switch (g->kind) {
			case RULE_REG:
				if (!(set & (1U << g->arg)))
					continue;
				next[g->reg] = regs[g->arg];
				break;
			case RULE_AT_CFA:
				if (!cfa_ok || !memory_read(NULL, addr, &next[g->reg], c))
					continue;
				break;
			case RULE_CFA_PLUS:
				if (!cfa_ok)
					continue;
				next[g->reg] = addr;
				break;
			}
			nset |= 1U << g->reg;
		}
		/* An undefined or unknown return address, or 0: the outermost frame. */
		if (!(nset & (1U << r->ra)) || !next[r->ra]) {
			*rc = 0;
			return 1;
		}
		pc = next[r->ra];
		memcpy(regs, next, sizeof(regs));
		set = nset;
		initial = false;
	}
}

/* ---- the unwinder ------------------------------------------------------------ */

/* This process's vDSO image (a whole ELF file: its section headers are inside). */
static void find_vdso(struct perfev__unwinder *u)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) * ph;
	size_t size, i;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phoff > VDSO_MAX ||
	    eh->e_shoff > VDSO_MAX)
		return;
	size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	if (size > VDSO_MAX)
		return;
	u->vdso = (const uint8_t *)eh;
	u->vdso_size = size;
}

int perfev__unwinder_new(struct perfev__unwinder **out)
{
	struct perfev__unwinder *u;
	const char *home;

	if (!out)
		return -EINVAL;
	*out = NULL;
	elf_version(EV_CURRENT);
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->callbacks.find_elf = find_elf;
	u->callbacks.find_debuginfo = find_debuginfo;
	memcpy(u->arch_ehdr.e_ident, ELFMAG, SELFMAG);
	u->arch_ehdr.e_ident[EI_CLASS] = ELFCLASS64;
	u->arch_ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
	u->arch_ehdr.e_ident[EI_VERSION] = EV_CURRENT;
	u->arch_ehdr.e_type = ET_EXEC;
	u->arch_ehdr.e_machine = EM_X86_64;
	u->arch_ehdr.e_version = EV_CURRENT;
	u->arch_ehdr.e_ehsize = sizeof(Elf64_Ehdr);
	u->arch_elf = elf_memory((char *)&u->arch_ehdr, sizeof(u->arch_ehdr));
	if (!u->arch_elf) {
		free(u);
		return -ENOMEM;
	}
	home = getenv("HOME");
	if (home && home[0] == '/' && asprintf(&u->buildid_dir, "%s/.debug", home) < 0)
		u->buildid_dir = NULL;
	find_vdso(u);
	*out = u;
	return 0;
}

void perfev__unwinder_free(struct perfev__unwinder *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nspaces; i++)
		space_free(u->spaces[i]);
	free(u->spaces);
	free(u->rule_slot);
	free(u->rules);
	for (i = 0; i < u->nfiles; i++)
		file_free(u->files[i]);
	free(u->files);
	/* Last: every Dwfl's backend pointed at it. */
	elf_end(u->arch_elf);
	free(u->buildid_dir);
	free(u);
}

void perfev__unwinder_forget(struct perfev__unwinder *u, const void *key)
{
	bool found;
	size_t i;

	if (!u)
		return;
	i = space_index(u, key, &found);
	if (found)
		space_remove_at(u, i);
}

void perfev__unwinder_set_libdwfl_only(struct perfev__unwinder *u, bool on)
{
	if (u)
		u->libdwfl_only = on;
}

void perfev__unwinder_stats(const struct perfev__unwinder *u, struct perfev__unwind_stats *out)
{
	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (u)
		*out = u->stats;
}

#if defined(__x86_64__)
/* perf's register of each DWARF register 0..16: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip. */
static const uint8_t perf_reg_of_dwarf[NREGS] = {
    PERF_REG_X86_AX,  PERF_REG_X86_DX,	PERF_REG_X86_CX,  PERF_REG_X86_BX,  PERF_REG_X86_SI,
    PERF_REG_X86_DI,  PERF_REG_X86_BP,	PERF_REG_X86_SP,  PERF_REG_X86_R8,  PERF_REG_X86_R9,
    PERF_REG_X86_R10, PERF_REG_X86_R11, PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14,
    PERF_REG_X86_R15, PERF_REG_X86_IP,
};

/* The sample's registers by DWARF number into @c; false without IP or SP. */
static bool take_regs(struct cur *c, const struct perfev__unwind_regs *regs)
{
	int r;

	if (regs->abi != PERF_SAMPLE_REGS_ABI_64 || !regs->regs)
		return false;
	if (!(regs->mask & (1ULL << PERF_REG_X86_IP)) || !(regs->mask & (1ULL << PERF_REG_X86_SP)))
		return false;
	for (r = 0; r < NREGS; r++) {
		unsigned int bit = perf_reg_of_dwarf[r];

		if (!(regs->mask & (1ULL << bit)))
			continue;
		/* The array may sit unaligned in a record. */
		memcpy(&c->regs[r],
		       regs->regs + __builtin_popcountll(regs->mask & ((1ULL << bit) - 1)),
		       sizeof(c->regs[r]));
		c->regs_set |= 1U << r;
	}
	c->sp_addr = c->regs[7];
	return true;
}
#else
static bool take_regs(struct cur *c, const struct perfev__unwind_regs *regs)
{
	return false;
}
#endif

/* Why the unwind stopped after the frame at @pc (as stored: a caller's minus one). */
static enum perfev__unwind_stop why_stopped(struct cur *c, uint64_t pc)
{
	const struct perfev__unwind_map *map = map_find(c->space, pc);
	Dwfl_Module *dm;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame;
	bool has_cfi = false;
	uint64_t end;

	if (!map)
		return PERFEV__UNWIND_UNMAPPED;
	dm = dwfl_addrmodule(c->sp->dwfl, pc);
	if (!dm)
		return PERFEV__UNWIND_NO_CFI;
	if ((cfi = dwfl_module_eh_cfi(dm, &bias)) && !dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		free(frame);
		has_cfi = true;
	}
	if (!has_cfi && (cfi = dwfl_module_dwarf_cfi(dm, &bias)) &&
	    !dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		free(frame);
		has_cfi = true;
	}
	if (!has_cfi)
		return PERFEV__UNWIND_NO_CFI;
	if (!c->read_failed)
		return PERFEV__UNWIND_ERROR;
	end = c->sp_addr + c->stack_size;
	if (c->failed_addr >= end && c->failed_addr - end < SHORT_SLACK)
		return PERFEV__UNWIND_SHORT;
	return map_find(c->space, c->failed_addr) ? PERFEV__UNWIND_ERROR : PERFEV__UNWIND_UNMAPPED;
}

int perfev__unwind(struct perfev__unwinder *u, const struct perfev__unwind_space *space,
		   uint32_t pid, uint32_t tid, const struct perfev__unwind_regs *regs,
		   const void *stack, size_t stack_size, uint64_t *ips, size_t max, size_t *n,
		   enum perfev__unwind_stop *stop)
{
	struct cur *c;
	struct space *sp;
	uint64_t end;
	int err, rc;

	if (!n || !stop)
		return -EINVAL;
	*n = 0;
	*stop = PERFEV__UNWIND_ERROR;
	if (!u || !space || !regs || (!ips && max) || (!stack && stack_size) ||
	    (!space->maps && space->nmaps))
		return -EINVAL;
	c = &u->cur;
	memset(c, 0, sizeof(*c));
	if (!take_regs(c, regs)) {
		*stop = PERFEV__UNWIND_NO_REGS;
		return 0;
	}
	if (!max) {
		*stop = PERFEV__UNWIND_MAX_DEPTH;
		return 0;
	}
	/* A copy that would wrap around the address space is cut where it would. */
	if (__builtin_add_overflow(c->sp_addr, (uint64_t)stack_size, &end))
		stack_size = (size_t)(UINT64_MAX - c->sp_addr);
	err = space_get(u, space->key, pid, &sp);
	if (err)
		return err;
	sp->used = ++u->tick;
	if (!sp->reported || sp->generation != space->generation) {
		err = space_report(u, sp, space);
		if (err)
			return err;
	}
	c->sp = sp;
	c->space = space;
	c->stack = stack;
	c->stack_size = stack_size;
	c->ips = ips;
	c->max = max;
	u->stats.unwinds++;
	if (u->libdwfl_only || !walk_rules(u, c, &rc)) {
		/* From the start again, all of it libdwfl's. */
		c->n = 0;
		c->full = c->read_failed = false;
		u->stats.libdwfl_walks++;
		/* Any tid: our get_thread callback hands out the current sample. */
		rc = dwfl_getthread_frames(sp->dwfl, (pid_t)(tid ? tid : 1), frame_cb, c);
	}
	*n = c->n;
	if (c->full)
		*stop = PERFEV__UNWIND_MAX_DEPTH;
	else if (!c->n || c->pc_failed)
		*stop = PERFEV__UNWIND_ERROR;
	else if (rc == 0 && !c->read_failed && !c->zero_pc)
		*stop = PERFEV__UNWIND_END;
	else
		*stop = why_stopped(c, ips[c->n - 1]);
	/* libdwfl keeps its last error per thread; nothing of this sample should linger. */
	(void)dwfl_errno();
	c->stack = NULL;
	c->ips = NULL;
	c->space = NULL;
	return 0;
}
