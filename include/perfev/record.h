/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding (and encoding) the records of the sampling ring buffer and of
 * perf.data files: every PERF_RECORD_* type of perf_event_open(2) and
 * every PERF_SAMPLE_* field, in the documented order.
 *
 * Pure functions over bytes.  A layout is computed once from an event's
 * attr; decoding checks every length against the record size and yields
 * a structure whose strings and arrays point into the caller's bytes
 * (valid as long as they are).  Arrays may be unaligned: read them with
 * perfev_u64_at().  Anything malformed is -EBADMSG, never a read past
 * the record.
 */
#ifndef PERFEV_RECORD_H
#define PERFEV_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <perfev/abi.h>
#include <perfev/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record types newer than some headers. */
#define PERFEV_RECORD_TEXT_POKE	       20 /* Linux 5.9 */
#define PERFEV_RECORD_AUX_OUTPUT_HW_ID 21 /* Linux 5.16 */
/* perf tool records (perf.data only, never from the kernel). */
#define PERFEV_RECORD_HEADER_ATTR	  64
#define PERFEV_RECORD_HEADER_EVENT_TYPE	  65
#define PERFEV_RECORD_HEADER_TRACING_DATA 66
#define PERFEV_RECORD_HEADER_BUILD_ID	  67
#define PERFEV_RECORD_FINISHED_ROUND	  68
#define PERFEV_RECORD_ID_INDEX		  69
#define PERFEV_RECORD_AUXTRACE_INFO	  70
#define PERFEV_RECORD_AUXTRACE		  71
#define PERFEV_RECORD_AUXTRACE_ERROR	  72
#define PERFEV_RECORD_THREAD_MAP	  73
#define PERFEV_RECORD_CPU_MAP		  74
#define PERFEV_RECORD_STAT_CONFIG	  75
#define PERFEV_RECORD_STAT		  76
#define PERFEV_RECORD_STAT_ROUND	  77
#define PERFEV_RECORD_EVENT_UPDATE	  78
#define PERFEV_RECORD_TIME_CONV		  79
#define PERFEV_RECORD_HEADER_FEATURE	  80
#define PERFEV_RECORD_COMPRESSED	  81
#define PERFEV_RECORD_FINISHED_INIT	  82

/* perf stat's records (perf stat record): the values of their type fields. */
#define PERFEV_STAT_ROUND_INTERVAL    0 /* STAT_ROUND after an interval of -I */
#define PERFEV_STAT_ROUND_FINAL	      1 /* STAT_ROUND after the final counts */
#define PERFEV_STAT_CONFIG_AGGR_MODE  0
#define PERFEV_STAT_CONFIG_INTERVAL   1 /* ms, 0 without -I */
#define PERFEV_STAT_CONFIG_SCALE      2
#define PERFEV_STAT_CONFIG_AGGR_LEVEL 3
#define PERFEV_CPU_MAP_CPUS	      0 /* a list of u16 CPU numbers */
#define PERFEV_CPU_MAP_MASK	      1
#define PERFEV_CPU_MAP_RANGE	      2
#define PERFEV_EVENT_UPDATE_UNIT      0
#define PERFEV_EVENT_UPDATE_SCALE     1
#define PERFEV_EVENT_UPDATE_NAME      2
#define PERFEV_EVENT_UPDATE_CPUS      3

/* misc bits. */
#define PERFEV_RECORD_MISC_MMAP_BUILD_ID (1U << 14) /* MMAP2 carries a build id, Linux 5.12 */

/* An unaligned little-endian-as-host u64 from an array in a record. */
static inline uint64_t perfev_u64_at(const void *base, size_t idx)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)base + idx * 8, sizeof(v));
	return v;
}

/*
 * What the records of one event contain, computed from its attr.
 */
struct perfev_sample_layout {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint32_t regs_user_count; /* registers in sample_regs_user */
	uint32_t regs_intr_count; /* registers in sample_regs_intr */
	bool sample_id_all;	  /* non-sample records carry a sample_id trailer */
	uint32_t id_trailer_size; /* bytes of that trailer (set even without sample_id_all) */
	int id_pos;		  /* u64 index of the id in a sample after the header, or -1 */
	int id_pos_from_end;	  /* u64 index of the id from the record's end (1: last), or -1 */
};

/*
 * Compute the layout of @attr's records, with perf's rules for the id
 * positions (evsel id_pos/is_pos).  PERF_SAMPLE_WEIGHT and
 * PERF_SAMPLE_WEIGHT_STRUCT together are accepted: they share one u64.
 *
 * Errors: -EINVAL (NULL argument, sample_type bits above
 * PERF_SAMPLE_WEIGHT_STRUCT, read_format bits above PERF_FORMAT_LOST).
 */
PERFEV_API int perfev_sample_layout_init(struct perfev_sample_layout *layout,
					 const struct perf_event_attr *attr);

/* The identity fields of a sample, or of a non-sample record's trailer. */
struct perfev_sample_id {
	uint64_t present; /* which of TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER are set */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t identifier;
};

struct perfev_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags; /* mispred, predicted, in_tx, abort, cycles:16, type:4, spec:2, ... */
};

struct perfev_sample {
	uint64_t present; /* the layout's sample_type */
	uint64_t identifier;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t period;

	/*
	 * PERF_SAMPLE_READ: the read_format layout; values via
	 * perfev_sample_read_value().  With PERF_FORMAT_GROUP, @values holds
	 * nr entries of { value, [id], [lost] }; without it nr is 1 and
	 * @values points at the record's own words: value, [time_enabled],
	 * [time_running], [id], [lost].
	 */
	struct {
		uint64_t time_enabled, time_running;
		uint64_t nr;
		const void *values;
	} read;

	uint64_t callchain_nr; /* u64 addresses and PERF_CONTEXT_* markers */
	const void *callchain;

	uint32_t raw_size; /* as recorded; the padding to 8 bytes is skipped */
	const void *raw;

	uint64_t branch_nr;
	uint64_t branch_hw_idx;	     /* with PERF_SAMPLE_BRANCH_HW_INDEX */
	const void *branches;	     /* branch_nr struct perfev_branch_entry, unaligned */
	const void *branch_counters; /* branch_nr u64 with PERFEV_SAMPLE_BRANCH_COUNTERS (6.8) */

	uint64_t regs_user_abi; /* PERF_SAMPLE_REGS_ABI_*; 0: no registers */
	const void *regs_user;	/* regs_user_count u64 when abi != 0 */

	uint64_t stack_user_size; /* bytes dumped */
	const void *stack_user;
	uint64_t stack_user_dyn_size; /* bytes of it that are valid */

	uint64_t weight; /* PERF_SAMPLE_WEIGHT, or the whole union with WEIGHT_STRUCT */
	/* The same u64 split; with WEIGHT_STRUCT the encoder writes this one. */
	struct {
		uint32_t var1_dw;
		uint16_t var2_w;
		uint16_t var3_w;
	} weight_struct;
	uint64_t data_src;
	uint64_t transaction;

	uint64_t regs_intr_abi;
	const void *regs_intr;

	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;

	uint64_t aux_size;
	const void *aux;
};

/*
 * Value @i of a sample's READ (group or single), or of a READ record's
 * u.read.values, with id and lost where present (else 0).  Any of the
 * out-pointers may be NULL.  Errors: -EINVAL (no READ values decoded),
 * -ERANGE (@i >= read.nr).
 */
PERFEV_API int perfev_sample_read_value(const struct perfev_sample_layout *layout,
					const struct perfev_sample *s, uint64_t i, uint64_t *value,
					uint64_t *id, uint64_t *lost);

/* PERF_SAMPLE_DATA_SRC decoded into its fields (perf_mem_data_src). */
struct perfev_data_src {
	unsigned int mem_op;	  /* PERF_MEM_OP_* bits */
	unsigned int mem_lvl;	  /* PERF_MEM_LVL_* bits */
	unsigned int mem_snoop;	  /* PERF_MEM_SNOOP_* bits */
	unsigned int mem_lock;	  /* PERF_MEM_LOCK_* bits */
	unsigned int mem_dtlb;	  /* PERF_MEM_TLB_* bits */
	unsigned int mem_lvl_num; /* PERF_MEM_LVLNUM_* */
	unsigned int mem_remote;
	unsigned int mem_snoopx;
	unsigned int mem_blk;
	unsigned int mem_hops;
};
PERFEV_API void perfev_data_src_decode(uint64_t data_src, struct perfev_data_src *out);

/* A decoded record.  Which member of @u is set follows @type. */
struct perfev_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	const void *bytes;	     /* the whole record */
	struct perfev_sample_id sid; /* non-sample records' trailer, or a sample's own ids */
	union {
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			const char *filename;
		} mmap;
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			bool has_build_id; /* misc & PERFEV_RECORD_MISC_MMAP_BUILD_ID */
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint8_t build_id_size; /* at most 20, else -EBADMSG */
			uint8_t build_id[20];
			uint32_t prot, flags;
			const char *filename;
		} mmap2;
		struct {
			uint64_t id, lost;
		} lost;
		struct {
			uint32_t pid, tid;
			bool exec; /* misc & PERF_RECORD_MISC_COMM_EXEC */
			const char *comm;
		} comm;
		struct {
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} fork; /* also PERF_RECORD_EXIT */
		struct {
			uint64_t time, id, stream_id;
		} throttle; /* also UNTHROTTLE */
		struct {
			uint32_t pid, tid;
			struct perfev_sample values; /* read.* set as for PERF_SAMPLE_READ */
		} read;
		struct {
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {
			uint32_t pid, tid;
		} itrace_start;
		struct {
			uint64_t lost;
		} lost_samples;
		struct {
			bool out;     /* misc & PERF_RECORD_MISC_SWITCH_OUT */
			bool preempt; /* misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT */
			uint32_t next_prev_pid, next_prev_tid; /* SWITCH_CPU_WIDE only */
		} context_switch;			       /* SWITCH and SWITCH_CPU_WIDE */
		struct {
			uint32_t pid, tid;
			uint64_t nr;
			const void *link_info; /* nr pairs of u64 dev, ino */
		} namespaces;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {
			uint16_t type, flags;
			uint32_t id;
			uint8_t tag[8];
		} bpf_event;
		struct {
			uint64_t id;
			const char *path;
		} cgroup;
		struct {
			uint64_t addr;
			uint16_t old_len, new_len;
			const void *bytes; /* old_len old bytes, then new_len new ones */
		} text_poke;
		struct {
			uint64_t hw_id;
		} aux_output_hw_id;
		/* perf stat record's counts: PERFEV_RECORD_STAT. */
		struct {
			uint64_t id;	 /* the kernel id of the counter's descriptor */
			uint32_t cpu;	 /* its CPU; (uint32_t)-1 for a task on any CPU */
			uint32_t thread; /* its index in the THREAD_MAP */
			uint64_t val, ena, run;
		} stat;
		struct {
			uint64_t type; /* PERFEV_STAT_ROUND_INTERVAL or _FINAL */
			uint64_t time; /* ns since counting started */
		} stat_round;
		struct {
			uint64_t nr;
			const void *data; /* nr pairs of u64: tag (PERFEV_STAT_CONFIG_*), value */
		} stat_config;
		struct {
			uint64_t nr;
			const void *entries; /* nr of { u64 pid; char comm[16]; }, 24 bytes each */
		} thread_map;
		/* PERFEV_RECORD_CPU_MAP. */
		struct {
			uint16_t type;	  /* PERFEV_CPU_MAP_*: only CPUS is decoded into @cpus */
			uint16_t nr;	  /* CPUS: how many */
			const void *cpus; /* CPUS: nr u16 CPU numbers, 0xffff for any CPU */
			const void *data; /* the bytes after @type (every type) */
			uint32_t data_size;
		} cpu_map;
		struct {
			uint64_t type;	  /* PERFEV_EVENT_UPDATE_* */
			uint64_t id;	  /* an id of the event */
			const char *str;  /* UNIT, NAME */
			double scale;	  /* SCALE */
			const void *data; /* CPUS: a CPU map as in cpu_map, from its type on */
			uint32_t data_size;
		} event_update;
		struct perfev_sample sample;
	} u;
};

/*
 * Decode the record at @buf (@len bytes available) with @layout.  Kernel
 * record types other than SAMPLE decode their body and, with
 * sample_id_all, the trailer (read from the record's end) into @out->sid;
 * a SAMPLE sets @out->sid from its own TID, TIME, ID, STREAM_ID, CPU and
 * IDENTIFIER.  Of perf's own types (>= 64) those of perf stat record
 * decode (STAT, STAT_ROUND, STAT_CONFIG, THREAD_MAP, CPU_MAP,
 * EVENT_UPDATE); the others, and types this library does not know, decode
 * only the header: callers skip them.  Bytes after the last field
 * (a newer kernel's additions) are ignored.
 *
 * An MMAP2 record is read with its build id when its misc has
 * PERFEV_RECORD_MISC_MMAP_BUILD_ID, else with maj/min/ino/ino_generation.
 * Linux leaves that bit set on the MMAP2 records of events that did not
 * set attr.build_id while another event on the system does (the record
 * is shared and its misc never restored), the device and inode fields in
 * place: such a record fails with -EBADMSG or gives a false build id.
 * A caller that knows the record's event and that its attr did not set
 * build_id clears the bit in a copy of the record before decoding it;
 * perfev_source_* reads every record with its event's attr so (and
 * keeps the bit of a record of no known event when some event asked).
 *
 * Errors: -EBADMSG (header size smaller than 8, larger than @len, any
 * field past the record or into its trailer, a string without its NUL
 * before the trailer, an MMAP2 build_id_size above 20), -EINVAL (NULL
 * argument, unknown sample_type or read_format bits in @layout).
 */
PERFEV_API int perfev_record_decode(const struct perfev_sample_layout *layout, const void *buf,
				    size_t len, struct perfev_record *out);

/*
 * The event id of a record, to pick its layout among several events: from
 * PERF_SAMPLE_IDENTIFIER, or the ID at the position @layout computes (all
 * events of a recording share those positions).  Returns 0 with *@id set,
 * -ENOENT when the record carries no id (no ID or IDENTIFIER in the
 * layout, a non-sample record without sample_id_all, perf's own and
 * unknown types), -EBADMSG when it is too short or its header is bad,
 * -EINVAL for a NULL argument.
 */
PERFEV_API int perfev_record_id(const struct perfev_sample_layout *layout, const void *buf,
				size_t len, uint64_t *id);

/*
 * Encode @rec (type, misc and the member of @u for it, plus @rec->sid
 * for non-sample records with sample_id_all) into @buf in @layout's
 * format, as the kernel writes it: strings NUL-terminated and padded with
 * zeros to 8 bytes, RAW and TEXT_POKE bytes likewise, the record's size a
 * multiple of 8.  The misc bits that @u also carries (comm.exec,
 * mmap2.has_build_id, context_switch.out and .preempt) are taken from @u.
 * Every kernel record type is supported, and perf stat record's (STAT,
 * STAT_ROUND, STAT_CONFIG, THREAD_MAP, EVENT_UPDATE, and CPU_MAP of type
 * CPUS; those have no trailer); @rec->size and @rec->bytes are ignored.
 *
 * Returns the record's size (header included), -ENOSPC when @len is too
 * small (the bytes of @buf are then unspecified), -EMSGSIZE when the
 * record would exceed the 65535 bytes of its header's size field,
 * -EINVAL for types it cannot encode, a NULL string, an array pointer
 * that is NULL with a non-zero count, or an MMAP2 build_id_size above 20.
 * Used to synthesize records of processes that already exist, and by tests.
 */
PERFEV_API int perfev_record_encode(const struct perfev_sample_layout *layout,
				    const struct perfev_record *rec, void *buf, size_t len);

/*
 * The CPUs of a decoded CPU_MAP record, or of an EVENT_UPDATE of type
 * CPUS, whatever the map's encoding (a list, a mask of 32- or 64-bit
 * words, a range; -1 for "any CPU"), into @cpus (up to @max).  Returns
 * how many there are (more than @max when they do not fit), -EBADMSG for
 * a malformed map, -EINVAL for another record or a NULL @cpus with @max.
 */
PERFEV_API int perfev_cpu_map_cpus(const struct perfev_record *rec, int *cpus, size_t max);

/* "SAMPLE", "MMAP2", ... or NULL. */
PERFEV_API const char *perfev_record_type_name(uint32_t type);

#ifdef __cplusplus
}
#endif

#endif /* PERFEV_RECORD_H */
