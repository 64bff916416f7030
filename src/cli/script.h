/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perfev script: what its files share.  cmd-script.c reads the file and
 * puts the records in time order, script-machine.c keeps the threads and
 * their memory maps, script-print.c prints perf script's text,
 * script-json.c JSON lines, script-dump.c the -D dump and --header,
 * script-sym.c the symbols of addresses.
 */
#ifndef PERFEV_CLI_SCRIPT_H
#define PERFEV_CLI_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <perfev/perfdata.h>
#include <perfev/record.h>

/* ---- threads and maps (script-machine.c) --------------------------------- */

struct script_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;
	const char *dso; /* interned, lives as long as the machine */
	bool identity;	 /* anonymous memory: addresses are not file offsets */
};

struct script_maps {
	struct script_map *v; /* sorted by start, never overlapping */
	size_t n, cap;
};

struct script_thread;
struct script_proc;
struct script_rec;

struct script_machine {
	/* tid -> thread and pid -> process, open addressing. */
	struct script_thread **threads;
	size_t nthreads, cap_threads;
	struct script_proc **procs;
	size_t nprocs, cap_procs;
	struct script_maps kmaps; /* modules and BPF programs; the kernel is the rest */
	uint64_t kernel_start;	  /* lowest kernel address: the kernel map's, or 1 << 63 */
	bool have_kernel_map;
	/* Where the recording saw the kernel's function @kernel_ref ("_text"): the map's pgoff. */
	const char *kernel_ref; /* interned; NULL: no kernel map named one */
	uint64_t kernel_ref_addr;
	char **strings; /* interned dso names */
	size_t nstrings, cap_strings;
};

void script_machine_init(struct script_machine *m);
void script_machine_release(struct script_machine *m);

/* Update the threads and maps from a COMM, FORK, EXIT, MMAP, MMAP2 or KSYMBOL record. */
void script_machine_process(struct script_machine *m, const struct perfev_record *rec);

/* The command name of @tid: from COMM or FORK records, "swapper" for 0, else ":tid". */
const char *script_machine_comm(struct script_machine *m, uint32_t tid, char *buf, size_t len);

/*
 * The map of @addr in the address space of @pid, seen in @cpumode
 * (PERF_RECORD_MISC_KERNEL or _USER), as perf finds it.  NULL: no map.
 */
const struct script_map *script_machine_find(struct script_machine *m, uint32_t pid,
					     unsigned int cpumode, uint64_t addr);

/* The address perf shows for a callchain entry: the file offset within its map. */
uint64_t script_map_ip(const struct script_map *map, uint64_t addr);

/* ---- the command's state ------------------------------------------------- */

/* -F fields, in the order perf prints them. */
enum script_field {
	SF_COMM = 1 << 0,
	SF_TID = 1 << 1,
	SF_PID = 1 << 2,
	SF_CPU = 1 << 3,
	SF_TIME = 1 << 4,
	SF_PERIOD = 1 << 5,
	SF_EVENT = 1 << 6,
	SF_TRACE = 1 << 7,
	SF_ADDR = 1 << 8,
	SF_IP = 1 << 9,
	SF_SYM = 1 << 10,
	SF_DSO = 1 << 11,
	SF_CALLCHAIN = 1 << 12,
	SF_SYMOFF = 1 << 13, /* printed with the sym: name+0x1f */
};

/* perf script's output types: the attr types it keeps field lists for. */
enum script_out_type {
	OT_HARDWARE,
	OT_SOFTWARE,
	OT_TRACEPOINT,
	OT_HW_CACHE,
	OT_RAW,
	OT_BREAKPOINT,
	OT_OTHER,
	OT_MAX,
};

/* Per-event state, by the event's index in the reader. */
struct script_event {
	char *name;
	bool checked;	/* its fields were checked against its sample_type */
	bool tp_warned; /* told that its tracepoint format is missing */
};

/* The file's tracing data, for tracepoint samples (script-trace.c). */
struct script_trace {
	struct perfev_tracing_data *td;
	const void *src; /* the feature bytes @td was parsed from */
	int err;	 /* why there is no @td (a stream may still send it) */
	bool warned;	 /* told why */
	char *buf;	 /* the last payload formatted */
	size_t cap;
	uint64_t nr_raw; /* samples shown raw: they did not fit their format */
};

/* The last value seen per sample id, to turn PERF_SAMPLE_READ into periods. */
struct script_read_last {
	uint64_t id, value;
};

struct perfev_symbolizer;

struct script {
	/* options */
	const char *input;
	bool json, dump, header, header_only;
	bool show_mmap, show_task, show_switch, hide_callchain;
	bool no_demangle;		  /* symbol names as the files spell them */
	const char *kallsyms;		  /* --kallsyms: the recording's kernel symbols */
	unsigned int fields[OT_MAX];	  /* what each output type prints */
	bool user_set[OT_MAX];		  /* -F was given */
	unsigned int user_fields[OT_MAX]; /* named in -F: missing sample bits are errors */

	struct perfev_data_reader *r;
	struct script_machine m;
	struct script_event *ev;
	size_t nev;
	int name_width; /* widest event name, computed at the first sample */

	struct script_read_last *last;
	size_t nlast, cap_last;

	uint64_t nr_unknown_id, nr_bad; /* samples of no known event; records not decoded */
	uint64_t nr_lost;
	uint64_t nr_compressed; /* PERF_RECORD_COMPRESSED, which are not decompressed */
	struct script_trace trace;
	struct perfev_symbolizer *symz; /* created at the first lookup (script-sym.c) */
	int symz_err;			/* why it could not be */
	uint64_t kref_told;		/* the kernel_ref_addr the symbolizer was told */
	bool kernel_warned;		/* said why kernel symbols are not shown */
	char kernel_id[2 * 20 + 1];	/* the recording's kernel build id, in hex, or "" */
	/* Build ids of MMAP2 records seen before the symbolizer was made. */
	struct script_build_id {
		char *path;
		uint8_t id[20];
		uint8_t len;
	} * bids;
	size_t nbids;
	bool failed;

	/* perfev report: each record goes here instead of being printed. */
	void (*sink)(struct script *s, const struct script_rec *sr,
		     const struct perfev_record *rec);
	void *sink_ctx;
};

/* The record as the reader gave it, with the event it belongs to. */
struct script_rec {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const void *bytes;
	const struct perfev_data_attr *attr; /* the record's event, or the first one */
	size_t attr_idx;
	uint64_t offset;
};

/*
 * Open s->input (s->input and the options set; NULL input: perf.data, or
 * a pipe on standard input), read it all in time order, close it.
 * Returns the exit status; errors are printed.
 */
int script_read_file(struct script *s);

/* The index of @a among the reader's events, SIZE_MAX if it is none of them. */
size_t script_attr_index(struct script *s, const struct perfev_data_attr *a);
/* The event's name: from the file, or made from its attr. */
const char *script_event_name(struct script *s, size_t idx);
enum script_out_type script_out_type(uint32_t attr_type);

/*
 * A sample with PERF_SAMPLE_READ (@rec, of event @sr) stands for one
 * sample per value read, each with the increase since the last read of
 * that counter as its period (perf's deliver_sample_group and
 * deliver_sample_value): that is how a group sampled by its leader (:S)
 * shows each member.  Calls @fn with the event's index and the period of
 * each value that increased; values of no known event are counted in
 * nr_unknown_id.  perfev script and perfev report both read them here.
 */
void script_sample_reads(struct script *s, const struct script_rec *sr,
			 const struct perfev_record *rec,
			 void (*fn)(struct script *s, size_t idx, uint64_t period, void *ctx),
			 void *ctx);

/*
 * script-trace.c: the format of event @idx when it is a tracepoint whose
 * format the file's tracing data has (loaded at first use, warning once
 * when it cannot be), else NULL.
 */
const struct perfev_tp_format *script_tp_format(struct script *s, size_t idx);
/*
 * The sample's raw data formatted with that format, as perf script prints
 * it (valid until the next call), or NULL: no format, or data that does
 * not fit it (counted, and reported by script_trace_release()).
 */
const char *script_trace_text(struct script *s, size_t idx, const struct perfev_sample *smp);
void script_trace_release(struct script *s);

/*
 * --kallsyms FILE: check that FILE can be read, before any output.
 * Returns 0, or 1 after saying why not.
 */
int script_check_kallsyms(const char *path);

/* script-sym.c: the symbol of an address. */
struct script_sym {
	const char *name; /* NULL: not resolved; valid until script_sym_release() */
	uint64_t off;	  /* the address's offset from the symbol's start */
};

/*
 * The symbol of @addr of process @pid, which script_machine_find() found
 * in @map (NULL: none) seen in @cpumode: a kernel symbol, a KSYMBOL's
 * name, the symbol of a file's map, of the vDSO, or of a JIT's
 * /tmp/perf-PID.map for anonymous memory.  0, or -ENOENT when there is
 * no symbol to show (perf's "[unknown]"), or another -errno from the
 * lookup.
 */
int script_symbolize(struct script *s, uint32_t pid, const struct script_map *map,
		     unsigned int cpumode, uint64_t addr, struct script_sym *out);
void script_sym_release(struct script *s);
/*
 * The symbolizer, made at the first call (NULL when it cannot be: said
 * once), told the build ids of the file's BUILD_ID feature and of the
 * MMAP2 records seen so far, so a file rebuilt since the recording is
 * not read for its symbols, nor another kernel's kallsyms for the kernel
 * (--kallsyms names the recording's).
 */
struct perfev_symbolizer *script_symbolizer(struct script *s);
/* The build id the recording saw for @path (from an MMAP2 record). */
void script_note_build_id(struct script *s, const char *path, const uint8_t *id, size_t len);

/* script-print.c: perf script's text. */
int script_check_fields(struct script *s, size_t idx);
void script_print_record(struct script *s, const struct script_rec *sr,
			 const struct perfev_record *rec);

/*
 * script-json.c: one JSON object per record, each on one line.  json.c
 * indents across lines, which JSON lines cannot have; this writer is
 * compact.
 */
struct jw {
	FILE *f;
	int depth;
	bool first[16];
	bool after_key;
};
void jw_init(struct jw *w, FILE *f);
void jw_obj_begin(struct jw *w);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w);
void jw_arr_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_str(struct jw *w, const char *s); /* NULL: null; invalid UTF-8 becomes U+FFFD */
void jw_u64(struct jw *w, uint64_t v);
void jw_i64(struct jw *w, int64_t v);
void jw_ku64(struct jw *w, const char *key, uint64_t v);
void jw_ki64(struct jw *w, const char *key, int64_t v);
void jw_kstr(struct jw *w, const char *key, const char *s);
void jw_kbool(struct jw *w, const char *key, bool v);
void jw_kdouble(struct jw *w, const char *key, double v);
void script_json_record(struct script *s, const struct script_rec *sr,
			const struct perfev_record *rec);

/* script-dump.c: -D and --header. */
void script_dump_record(struct script *s, const struct script_rec *sr,
			const struct perfev_record *rec, int decode_err);
void script_print_header(struct script *s);

/* Formatting helpers shared by the printers. */
void script_fprint_event(FILE *f, const struct perfev_record *rec); /* "PERF_RECORD_MMAP2 ...\n" */
void script_fprint_time(FILE *f, uint64_t ns, int width);
void script_hexdump(FILE *f, const void *buf, size_t len);

#endif /* PERFEV_CLI_SCRIPT_H */
