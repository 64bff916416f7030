/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perfev script: what its files share.  cmd-script.c takes the records
 * in time order from the library's source (perfev/source.h), which keeps
 * the threads and maps and resolves addresses; script-print.c prints
 * perf script's text, script-json.c JSON lines, script-dump.c the -D
 * dump and --header.
 */
#ifndef PERFEV_CLI_SCRIPT_H
#define PERFEV_CLI_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <perfev/perfdata.h>
#include <perfev/record.h>
#include <perfev/source.h>
#include "common/hashmap.h"
#include "input.h"
#include "output/output.h"

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
	SF_DATA_SRC = 1 << 14,
	SF_WEIGHT = 1 << 15,
	SF_INS_LAT = 1 << 16,
	SF_IREGS = 1 << 17,
	SF_UREGS = 1 << 18,
	SF_BRSTACK = 1 << 19,
	SF_BRSTACKSYM = 1 << 20,
	SF_PHYS_ADDR = 1 << 21,
	SF_CGROUP = 1 << 22,
	SF_SRCLINE = 1 << 23, /* after each address: "\n  file.c:42" */
	SF_INSN = 1 << 24,    /* the instruction's bytes at the sample address */
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

/* An object file mapped to read instructions from (-F insn). */
struct script_code {
	const unsigned char *p;
	size_t len;
	bool is64; /* ELFCLASS64 */
};

/* Per-event state, by the event's index in the reader. */
struct script_event {
	bool checked;	/* its fields were checked against its sample_type */
	bool tp_warned; /* told that its tracepoint format is missing */
	/* --per-event-dump: the file its samples go to, its name and how many went there. */
	struct cli_output *dump_out;
	FILE *dump;
	uint64_t nr_dumped;
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

struct script {
	/* options */
	const char *input;
	bool json, dump, header, header_only;
	bool show_info; /* -I: the header's topology, cache and memory in full */
	bool show_mmap, show_task, show_switch, show_namespaces, hide_callchain;
	bool insn_warned;		  /* the insn field's missing decoder said once */
	bool no_demangle;		  /* symbol names as the files spell them */
	bool per_event_dump;		  /* each event's samples to INPUT.EVENT.dump */
	const char *kallsyms;		  /* --kallsyms: the recording's kernel symbols */
	const char *symfs;		  /* --symfs: where the recording's files are */
	const char *archive;		  /* --archive: an archive of the recording's files */
	unsigned int fields[OT_MAX];	  /* what each output type prints */
	bool user_set[OT_MAX];		  /* -F was given */
	unsigned int user_fields[OT_MAX]; /* named in -F: missing sample bits are errors */

	struct input in;
	struct perfev_source *src;	    /* in.src */
	struct perfev_machine *m;	    /* its threads, maps and symbols */
	const struct perfev_data_reader *r; /* its file */
	struct script_event *ev;
	size_t nev;
	int name_width;	    /* widest event name, computed at the first sample */
	int data_src_width; /* widest data_src printed so far: perf pads to it */
	char arch[64];	    /* the recording's machine (ARCH feature), "" this one's */
	struct perfev__hashmap dwarf_dsos; /* srcline: object name (interned) -> 1 DWARF, 2 none */
	struct perfev__hashmap insn_files; /* insn: object name (interned) -> code index + 1 */
	struct {
		struct script_code *v;
		size_t n, cap;
	} code; /* the object files insn read, mapped */
	struct {
		struct perfev_frame *v;
		size_t cap;
	} chain;     /* a copy of a call chain's frames */
	bool native; /* recorded on this kind of machine: code can be read here (insn) */

	struct script_trace trace;
	bool failed;
};

/* The event's name: from the file, or made from its attr. */
const char *script_event_name(struct script *s, size_t idx);
enum script_out_type script_out_type(uint32_t attr_type);

/* The command name of thread @tid: from COMM or FORK records, "swapper" for 0, else ":tid". */
const char *script_comm(struct script *s, uint32_t tid, char *buf, size_t len);

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

/* script-print.c: perf script's text. */
int script_check_fields(struct script *s, size_t idx);
void script_print_record(struct script *s, const struct perfev_source_event *sr,
			 const struct perfev_record *rec);

/* script-json.c: one JSON object per record, each on one line (json.c's JSON_LINES). */
void script_json_record(struct script *s, const struct perfev_source_event *sr,
			const struct perfev_record *rec);

/* script-dump.c: -D and --header. */
void script_dump_record(struct script *s, const struct perfev_source_event *sr,
			const struct perfev_record *rec, int decode_err);
void script_print_header(struct script *s);

/* script-fields.c: the fields of hardware samples. */
void script_print_data_src(struct script *s, FILE *o, uint64_t data_src);
void script_print_regs(struct script *s, FILE *o, uint64_t abi, const void *regs, uint64_t mask);
/* brstack (" 0x1/0x2/P/-/-/0/CALL "...), or brstacksym with @syms; (dso) after each with SF_DSO. */
void script_print_brstack(struct script *s, FILE *o, unsigned int fields,
			  const struct perfev_sample *smp, bool syms);
void script_print_srcline(struct script *s, FILE *o, const struct perfev_frame *f);
/*
 * The bytes of the instruction at @ip of process @pid into @buf (16
 * bytes), read from the mapped file as perf reads them: its length, 0
 * when not readable.  script_print_insn() prints them: " insn: 48 89 e5".
 */
int script_insn(struct script *s, uint32_t pid, uint64_t ip, unsigned char *buf);
void script_print_insn(struct script *s, FILE *o, uint32_t pid, uint64_t ip);
void script_insn_release(struct script *s);

/* Formatting helpers shared by the printers. */
void script_fprint_event(FILE *f, const struct perfev_record *rec); /* "PERF_RECORD_MMAP2 ...\n" */
void script_fprint_time(FILE *f, uint64_t ns, int width);
void script_hexdump(FILE *f, const void *buf, size_t len);

#endif /* PERFEV_CLI_SCRIPT_H */
