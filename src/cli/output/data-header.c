// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The header of a perf.data file as perf report --header-only (and perf
 * script --header) prints it: the file's sections, then each feature in
 * the order of its bit, the features of perf's -I in full with it (else
 * a line saying they are there), and the features the file lacks.  perfev report --header,
 * perfev script --header and their -j form share it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "input.h"
#include "output/json.h"
#include "perfev-cli.h"

/* perf 6.1's feature names, by bit (HEADER_LAST_FEATURE is 32). */
static const char *const feat_names[] = {
    [PERFEV_FEAT_TRACING_DATA] = "TRACING_DATA",
    [PERFEV_FEAT_BUILD_ID] = "BUILD_ID",
    [PERFEV_FEAT_HOSTNAME] = "HOSTNAME",
    [PERFEV_FEAT_OSRELEASE] = "OSRELEASE",
    [PERFEV_FEAT_VERSION] = "VERSION",
    [PERFEV_FEAT_ARCH] = "ARCH",
    [PERFEV_FEAT_NRCPUS] = "NRCPUS",
    [PERFEV_FEAT_CPUDESC] = "CPUDESC",
    [PERFEV_FEAT_CPUID] = "CPUID",
    [PERFEV_FEAT_TOTAL_MEM] = "TOTAL_MEM",
    [PERFEV_FEAT_CMDLINE] = "CMDLINE",
    [PERFEV_FEAT_EVENT_DESC] = "EVENT_DESC",
    [PERFEV_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
    [PERFEV_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
    [PERFEV_FEAT_BRANCH_STACK] = "BRANCH_STACK",
    [PERFEV_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
    [PERFEV_FEAT_GROUP_DESC] = "GROUP_DESC",
    [PERFEV_FEAT_AUXTRACE] = "AUXTRACE",
    [PERFEV_FEAT_STAT] = "STAT",
    [PERFEV_FEAT_CACHE] = "CACHE",
    [PERFEV_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
    [PERFEV_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
    [PERFEV_FEAT_CLOCKID] = "CLOCKID",
    [PERFEV_FEAT_DIR_FORMAT] = "DIR_FORMAT",
    [PERFEV_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
    [PERFEV_FEAT_BPF_BTF] = "BPF_BTF",
    [PERFEV_FEAT_COMPRESSED] = "COMPRESSED",
    [PERFEV_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
    [PERFEV_FEAT_CLOCK_DATA] = "CLOCK_DATA",
    [PERFEV_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
    [PERFEV_FEAT_PMU_CAPS] = "PMU_CAPS",
};
#define NFEAT (sizeof(feat_names) / sizeof(feat_names[0]))

struct hdr {
	const struct perfev_data_reader *r;
	struct perfev_source *src;
	struct json *w; /* NULL: text */
	bool full;	/* perf's -I: the topology, cache and memory features in full */
};

/* A bounded reader over a feature's bytes: every read checked, a short one fails. */
struct cur {
	const unsigned char *p;
	size_t left;
};

static bool cur_u32(struct cur *c, uint32_t *v)
{
	if (c->left < 4)
		return false;
	memcpy(v, c->p, 4);
	c->p += 4;
	c->left -= 4;
	return true;
}

static bool cur_u64(struct cur *c, uint64_t *v)
{
	if (c->left < 8)
		return false;
	memcpy(v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return true;
}

/* perf's header string: a u32 length (padding included), the bytes, a NUL within them. */
static const char *cur_str(struct cur *c)
{
	const char *s;
	uint32_t len;

	if (!cur_u32(c, &len) || len > c->left || !memchr(c->p, '\0', len))
		return NULL;
	s = (const char *)c->p;
	c->p += len;
	c->left -= len;
	return s;
}

static bool cur_of(const struct hdr *h, int feat, struct cur *c)
{
	const void *data;
	size_t len;

	if (perfev_data_feature(h->r, feat, &data, &len))
		return false;
	c->p = data;
	c->left = len;
	return true;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static const char *event_name(const struct hdr *h, size_t idx)
{
	const char *name = perfev_source_attr_name(h->src, idx);

	if (!name)
		cli_die("out of memory");
	return name;
}

/* perf 6.1's names of sample_type bits, in its order (it has no name for TRANSACTION). */
static void sample_type_str(uint64_t v, char *buf, size_t len)
{
	static const uint64_t order[] = {
	    PERF_SAMPLE_IP,
	    PERF_SAMPLE_TID,
	    PERF_SAMPLE_TIME,
	    PERF_SAMPLE_ADDR,
	    PERF_SAMPLE_READ,
	    PERF_SAMPLE_CALLCHAIN,
	    PERF_SAMPLE_ID,
	    PERF_SAMPLE_CPU,
	    PERF_SAMPLE_PERIOD,
	    PERF_SAMPLE_STREAM_ID,
	    PERF_SAMPLE_RAW,
	    PERF_SAMPLE_BRANCH_STACK,
	    PERF_SAMPLE_REGS_USER,
	    PERF_SAMPLE_STACK_USER,
	    PERF_SAMPLE_IDENTIFIER,
	    PERF_SAMPLE_REGS_INTR,
	    PERF_SAMPLE_DATA_SRC,
	    PERF_SAMPLE_WEIGHT,
	    PERF_SAMPLE_PHYS_ADDR,
	    PERF_SAMPLE_AUX,
	    PERF_SAMPLE_CGROUP,
	    PERF_SAMPLE_DATA_PAGE_SIZE,
	    PERF_SAMPLE_CODE_PAGE_SIZE,
	    PERF_SAMPLE_WEIGHT_STRUCT,
	};
	size_t i, at = 0;
	char name[64];

	buf[0] = '\0';
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(v & order[i]) || at >= len)
			continue;
		perfev_sample_type_str(order[i], name, sizeof(name));
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "|" : "", name);
	}
}

static void attr_value(char *buf, size_t len, const struct perfev_attr_field *fl)
{
	switch (fl->fmt) {
	case PERFEV_ATTR_FMT_HEX:
		snprintf(buf, len, "%#llx", (unsigned long long)fl->value);
		break;
	case PERFEV_ATTR_FMT_SIGNED:
		snprintf(buf, len, "%d", (int)(int32_t)fl->value);
		break;
	case PERFEV_ATTR_FMT_FLAGS:
		if (!strcmp(fl->key, "sample_type"))
			sample_type_str(fl->value, buf, len);
		else if (!strcmp(fl->key, "read_format"))
			perfev_read_format_str(fl->value, buf, len);
		else
			perfev_branch_type_str(fl->value, buf, len);
		break;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)fl->value);
	}
}

/*
 * perf_event_attr__fprintf: the fields that are not zero, a union under
 * the names of its members, the fields perf 6.1 does not know left out.
 */
static int text_attr_field(const struct perfev_attr_field *fl, void *ctx)
{
	const char *name = fl->name;
	char buf[256];

	if (!fl->value || !strncmp(name, "__", 2) || !strcmp(name, "config3"))
		return 0;
	if (!strcmp(fl->key, "sample_period") || !strcmp(fl->key, "sample_freq"))
		name = "{ sample_period, sample_freq }";
	attr_value(buf, sizeof(buf), fl);
	printf(", %s = %s", name, buf);
	return 0;
}

static int json_attr_field(const struct perfev_attr_field *fl, void *ctx)
{
	struct json *w = ctx;

	if (fl->fmt == PERFEV_ATTR_FMT_SIGNED)
		json_ki64(w, fl->key, (int32_t)fl->value);
	else
		json_ku64(w, fl->key, fl->value);
	return 0;
}

static void string_feat(const struct hdr *h, int feat, const char *label, const char *key)
{
	char buf[4096];

	if (perfev_data_feature_string(h->r, feat, buf, sizeof(buf)) < 0)
		return;
	if (h->w)
		json_kstr(h->w, key, buf);
	/* perf ends its command line with the space after each word. */
	else if (feat == PERFEV_FEAT_CMDLINE)
		printf("# %s : %s \n", label, buf);
	else
		printf("# %s : %s\n", label, buf);
}

static void events(const struct hdr *h)
{
	size_t i, k, n = perfev_data_attr_count(h->r);

	if (h->w) {
		json_key(h->w, "events");
		json_arr_begin(h->w);
	}
	for (i = 0; i < n; i++) {
		const struct perfev_data_attr *a = perfev_data_attr(h->r, i);

		if (h->w) {
			json_obj_begin(h->w);
			json_kstr(h->w, "name", event_name(h, i));
			json_key(h->w, "ids");
			json_arr_begin(h->w);
			for (k = 0; k < a->nids; k++)
				json_u64(h->w, a->ids[k]);
			json_arr_end(h->w);
			json_key(h->w, "attr");
			json_obj_begin(h->w);
			perfev_attr_foreach(a->attr, json_attr_field, h->w);
			json_obj_end(h->w);
			json_obj_end(h->w);
			continue;
		}
		/* perf 6.1's ", , id": its name ends with a separator, and so does each field. */
		printf("# event : name = %s, ", event_name(h, i));
		if (a->nids) {
			printf(", id = {");
			for (k = 0; k < a->nids; k++)
				printf("%s %" PRIu64, k ? "," : "", a->ids[k]);
			printf(" }");
		}
		perfev_attr_foreach(a->attr, text_attr_field, NULL);
		putchar('\n');
	}
	if (h->w)
		json_arr_end(h->w);
}

static void pmu_mappings(const struct hdr *h)
{
	const unsigned char *p;
	const void *data;
	size_t len, off = 4;
	uint32_t n, i;

	if (perfev_data_feature(h->r, PERFEV_FEAT_PMU_MAPPINGS, &data, &len) || len < 4)
		return;
	p = data;
	n = u32_at(p);
	if (h->w) {
		json_key(h->w, "pmu_mappings");
		json_obj_begin(h->w);
	} else {
		printf("# pmu mappings:");
	}
	for (i = 0; i < n && off + 8 <= len; i++) {
		uint32_t type = u32_at(p + off), slen = u32_at(p + off + 4);
		char name[256];

		off += 8;
		if (slen > len - off)
			break;
		snprintf(name, sizeof(name), "%.*s", (int)slen, (const char *)p + off);
		off += slen;
		if (h->w)
			json_ku64(h->w, name, type);
		else
			printf("%s %s = %u", i ? "," : "", name, type);
	}
	if (h->w)
		json_obj_end(h->w);
	else
		putchar('\n');
}

/* "# group: {a,b}" per group, perf's group names before the brace. */
static void groups(const struct hdr *h)
{
	struct perfev_data_group g;
	size_t i, m, n = perfev_data_attr_count(h->r);

	if (h->w) {
		json_key(h->w, "groups");
		json_arr_begin(h->w);
	}
	for (i = 0; !perfev_data_group(h->r, i, &g); i++) {
		if (g.nr_members < 2 || g.leader >= n || g.nr_members > n - g.leader)
			continue;
		if (h->w) {
			json_obj_begin(h->w);
			json_kstr(h->w, "name", g.name);
			json_ku64(h->w, "leader", g.leader);
			json_ku64(h->w, "members", g.nr_members);
			json_obj_end(h->w);
			continue;
		}
		printf("# group: %s{", g.name ? g.name : "");
		for (m = 0; m < g.nr_members; m++)
			printf("%s%s", m ? "," : "", event_name(h, g.leader + m));
		printf("}\n");
	}
	if (h->w)
		json_arr_end(h->w);
}

static void sample_time(const struct hdr *h)
{
	uint64_t first, last;

	if (perfev_data_feature_u64(h->r, PERFEV_FEAT_SAMPLE_TIME, 0, &first) ||
	    perfev_data_feature_u64(h->r, PERFEV_FEAT_SAMPLE_TIME, 1, &last))
		return;
	if (h->w) {
		json_ku64(h->w, "first_sample_time", first);
		json_ku64(h->w, "last_sample_time", last);
		return;
	}
	/* perf's times: seconds and microseconds. */
	printf("# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", first / 1000000000,
	       first % 1000000000 / 1000);
	printf("# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", last / 1000000000,
	       last % 1000000000 / 1000);
	printf("# sample duration : %10.3f ms\n",
	       last >= first ? (double)(last - first) / 1e6 : 0.0);
}

/* COMPRESSED: version, type, level, ratio, mmap length (u32 each). */
static void compressed(const struct hdr *h)
{
	const unsigned char *p;
	const void *data;
	size_t len;

	if (perfev_data_feature(h->r, PERFEV_FEAT_COMPRESSED, &data, &len) || len < 16)
		return;
	p = data;
	if (h->w) {
		json_ku64(h->w, "compression_type", u32_at(p + 4));
		json_ku64(h->w, "compression_level", u32_at(p + 8));
		json_ku64(h->w, "compression_ratio", u32_at(p + 12));
		return;
	}
	printf("# compressed : %s, level = %d, ratio = %d\n",
	       u32_at(p + 4) == 1 ? "Zstd" : "Unknown", (int)u32_at(p + 8), (int)u32_at(p + 12));
}

/* CLOCK_DATA (perfev_data_clock()): the clock's name and the reference time, as perf. */
static void clock_data(const struct hdr *h)
{
	struct perfev_data_clock c;
	const char *name;
	char date[64] = "<error>";
	struct tm tm;
	time_t sec;

	if (perfev_data_clock(h->r, &c))
		return;
	if (h->w) {
		json_ku64(h->w, "clockid", (uint64_t)(uint32_t)c.clockid);
		json_ku64(h->w, "reference_tod_ns", c.tod_ns);
		json_ku64(h->w, "reference_clock_ns", c.clockid_ns);
		return;
	}
	name = perfev_clockid_name(c.clockid) ?: "(not found)";
	sec = (time_t)(c.tod_ns / 1000000000);
	if (localtime_r(&sec, &tm) && strftime(date, sizeof(date), "%F %T", &tm))
		snprintf(date + strlen(date), sizeof(date) - strlen(date), ".%06d",
			 (int)(c.tod_ns % 1000000000 / 1000));
	printf("# clockid: %s (%u)\n", name, (unsigned int)c.clockid);
	printf("# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date, (long)sec,
	       (int)(c.tod_ns % 1000000000 / 1000), (long)(c.clockid_ns / 1000000000),
	       (long)(c.clockid_ns % 1000000000), name);
}

/*
 * CPU_TOPOLOGY: the socket and thread sibling lists, each CPU's core and
 * socket, then (newer files) the die sibling lists and each CPU's die.
 */
static void cpu_topology(const struct hdr *h)
{
	uint32_t nsock, nthr, ndie = 0, i, v;
	uint64_t ncpu = 0;
	const char *sock, *thr, *die = NULL, *s;
	struct cur c, cpus;
	bool ids;

	if (!cur_of(h, PERFEV_FEAT_CPU_TOPOLOGY, &c) || !cur_u32(&c, &nsock))
		return;
	for (sock = (const char *)c.p + 4, i = 0; i < nsock; i++)
		if (!cur_str(&c))
			return;
	if (!cur_u32(&c, &nthr))
		return;
	for (thr = (const char *)c.p + 4, i = 0; i < nthr; i++)
		if (!cur_str(&c))
			return;
	perfev_data_feature_u64(h->r, PERFEV_FEAT_NRCPUS, 0, &ncpu);
	cpus = c;
	/* The core and socket ids, if all there; the dies after them. */
	ids = ncpu && c.left >= ncpu * 8;
	if (ids) {
		c.p += ncpu * 8;
		c.left -= ncpu * 8;
		if (cur_u32(&c, &ndie)) {
			for (die = (const char *)c.p + 4, i = 0; i < ndie; i++)
				if (!cur_str(&c))
					ndie = 0;
			if (c.left < ncpu * 4)
				ndie = 0;
		}
	}
	/* Each list is a length and its string: the strings follow one another so. */
	for (s = sock, i = 0; i < nsock; s += 4 + u32_at((const unsigned char *)s - 4), i++)
		printf("# sibling sockets : %s\n", s);
	for (s = die, i = 0; i < ndie; s += 4 + u32_at((const unsigned char *)s - 4), i++)
		printf("# sibling dies    : %s\n", s);
	for (s = thr, i = 0; i < nthr; s += 4 + u32_at((const unsigned char *)s - 4), i++)
		printf("# sibling threads : %s\n", s);
	if (!ids) {
		printf(ndie ? "# Core ID, Die ID and Socket ID information is not available\n"
			    : "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (i = 0; i < ncpu; i++) {
		uint32_t core = 0, sk = 0;

		cur_u32(&cpus, &core);
		cur_u32(&cpus, &sk);
		if (ndie) {
			memcpy(&v, c.p + 4 * i, 4);
			printf("# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i, (int)core,
			       (int)v, (int)sk);
		} else {
			printf("# CPU %u: Core ID %d, Socket ID %d\n", i, (int)core, (int)sk);
		}
	}
}

/* NUMA_TOPOLOGY: per node its number, memory total and free (kB), CPU list. */
static void numa_topology(const struct hdr *h)
{
	uint32_t n, i, node;
	uint64_t total, avail;
	const char *cpus;
	struct cur c;

	if (!cur_of(h, PERFEV_FEAT_NUMA_TOPOLOGY, &c) || !cur_u32(&c, &n))
		return;
	for (i = 0; i < n; i++) {
		if (!cur_u32(&c, &node) || !cur_u64(&c, &total) || !cur_u64(&c, &avail) ||
		    !(cpus = cur_str(&c)))
			return;
		printf("# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n", node,
		       total, avail);
		printf("# node%u cpu list : %s\n", node, cpus);
	}
}

/* CACHE: version 1, then per cache level, line size, sets, ways, type, size, CPU map. */
static void cache(const struct hdr *h)
{
	uint32_t version, n, i, level, skip;
	const char *type, *size, *map;
	struct cur c;

	if (!cur_of(h, PERFEV_FEAT_CACHE, &c) || !cur_u32(&c, &version) || version != 1 ||
	    !cur_u32(&c, &n))
		return;
	printf("# CPU cache info:\n");
	for (i = 0; i < n; i++) {
		if (!cur_u32(&c, &level) || !cur_u32(&c, &skip) || !cur_u32(&c, &skip) ||
		    !cur_u32(&c, &skip) || !(type = cur_str(&c)) || !(size = cur_str(&c)) ||
		    !(map = cur_str(&c)))
			return;
		printf("#  L%d %-15s %8s [%s]\n", (int)level, type, size, map);
	}
}

/* perf's size: bytes divided by 1024 while more than one would remain, B K M G. */
static void unit_number(char *buf, size_t len, uint64_t n)
{
	static const char units[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", n, units[i]);
}

/* MEM_TOPOLOGY: version, block size, nodes: each its number and a bitmap of blocks. */
static void mem_topology(const struct hdr *h)
{
	uint64_t version, bsize, n, i, node, bits, nbits, k, words, word, set;
	char size[32];
	struct cur c;

	if (!cur_of(h, PERFEV_FEAT_MEM_TOPOLOGY, &c) || !cur_u64(&c, &version) ||
	    !cur_u64(&c, &bsize) || !cur_u64(&c, &n))
		return;
	printf("# memory nodes (nr %d, block size 0x%llx):\n", (int)n, (unsigned long long)bsize);
	for (i = 0; i < n; i++) {
		const unsigned char *map;
		bool first = true;
		int64_t start = -1;

		if (!cur_u64(&c, &node) || !cur_u64(&c, &bits) || !cur_u64(&c, &nbits) ||
		    nbits > (uint64_t)c.left * 8)
			return;
		words = (nbits + 63) / 64;
		if (words * 8 > c.left)
			return;
		map = c.p;
		c.p += words * 8;
		c.left -= words * 8;
		for (set = 0, k = 0; k < nbits; k++) {
			memcpy(&word, map + k / 64 * 8, 8);
			set += (word >> (k % 64)) & 1;
		}
		unit_number(size, sizeof(size), bsize * set);
		printf("#  %3" PRIu64 " [%s]: ", node, size);
		/* The set blocks as ranges: "0-23,32-199". */
		for (k = 0; k <= nbits; k++) {
			bool on = false;

			if (k < nbits) {
				memcpy(&word, map + k / 64 * 8, 8);
				on = (word >> (k % 64)) & 1;
			}
			if (on && start < 0)
				start = (int64_t)k;
			if (!on && start >= 0) {
				printf("%s%" PRId64, first ? "" : ",", start);
				if ((uint64_t)start != k - 1)
					printf("-%" PRIu64, k - 1);
				first = false;
				start = -1;
			}
		}
		putchar('\n');
	}
}

/* Feature @feat, when the file has it. */
static void feature(const struct hdr *h, int feat)
{
	uint64_t a, b;

	switch (feat) {
	case PERFEV_FEAT_HOSTNAME:
		string_feat(h, feat, "hostname", "hostname");
		break;
	case PERFEV_FEAT_OSRELEASE:
		string_feat(h, feat, "os release", "os_release");
		break;
	case PERFEV_FEAT_VERSION:
		string_feat(h, feat, "perf version", "perf_version");
		break;
	case PERFEV_FEAT_ARCH:
		string_feat(h, feat, "arch", "arch");
		break;
	case PERFEV_FEAT_NRCPUS:
		if (perfev_data_feature_u64(h->r, feat, 0, &a) ||
		    perfev_data_feature_u64(h->r, feat, 1, &b))
			break;
		if (h->w) {
			json_ku64(h->w, "nrcpus_online", b);
			json_ku64(h->w, "nrcpus_avail", a);
		} else {
			printf("# nrcpus online : %" PRIu64 "\n# nrcpus avail : %" PRIu64 "\n", b,
			       a);
		}
		break;
	case PERFEV_FEAT_CPUDESC:
		string_feat(h, feat, "cpudesc", "cpudesc");
		break;
	case PERFEV_FEAT_CPUID:
		string_feat(h, feat, "cpuid", "cpuid");
		break;
	case PERFEV_FEAT_TOTAL_MEM:
		if (perfev_data_feature_u64(h->r, feat, 0, &a))
			break;
		if (h->w)
			json_ku64(h->w, "total_mem_kb", a);
		else
			printf("# total memory : %" PRIu64 " kB\n", a);
		break;
	case PERFEV_FEAT_CMDLINE:
		string_feat(h, feat, "cmdline", "cmdline");
		break;
	case PERFEV_FEAT_EVENT_DESC:
		events(h);
		break;
	case PERFEV_FEAT_CPU_TOPOLOGY:
	case PERFEV_FEAT_NUMA_TOPOLOGY:
	case PERFEV_FEAT_CACHE:
	case PERFEV_FEAT_MEM_TOPOLOGY:
	case PERFEV_FEAT_HYBRID_TOPOLOGY:
		/* perf prints these with -I only (and no HYBRID_TOPOLOGY here). */
		if (h->w)
			break;
		if (!h->full || feat == PERFEV_FEAT_HYBRID_TOPOLOGY)
			printf("# %s info available, use -I to display\n", feat_names[feat]);
		else if (feat == PERFEV_FEAT_CPU_TOPOLOGY)
			cpu_topology(h);
		else if (feat == PERFEV_FEAT_NUMA_TOPOLOGY)
			numa_topology(h);
		else if (feat == PERFEV_FEAT_CACHE)
			cache(h);
		else
			mem_topology(h);
		break;
	case PERFEV_FEAT_PMU_MAPPINGS:
		pmu_mappings(h);
		break;
	case PERFEV_FEAT_GROUP_DESC:
		groups(h);
		break;
	case PERFEV_FEAT_AUXTRACE:
		if (h->w)
			json_kbool(h->w, "auxtrace", true);
		else
			printf("# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PERFEV_FEAT_BRANCH_STACK:
		if (h->w)
			json_kbool(h->w, "branch_stack", true);
		else
			printf("# contains samples with branch stack\n");
		break;
	case PERFEV_FEAT_STAT:
		if (h->w)
			json_kbool(h->w, "stat", true);
		else
			printf("# contains stat data\n");
		break;
	case PERFEV_FEAT_SAMPLE_TIME:
		sample_time(h);
		break;
	case PERFEV_FEAT_CLOCKID:
		if (perfev_data_feature_u64(h->r, feat, 0, &a))
			break;
		/* perf 6.1 calls the clock's resolution (ns) times 1000 its frequency in MHz. */
		if (h->w)
			json_ku64(h->w, "clockid_res_ns", a);
		else
			printf("# clockid frequency: %" PRIu64 " MHz\n", a * 1000);
		break;
	case PERFEV_FEAT_COMPRESSED:
		compressed(h);
		break;
	case PERFEV_FEAT_CLOCK_DATA:
		clock_data(h);
		break;
	default:
		/* BUILD_ID, TRACING_DATA: perf prints nothing; the rest: not read. */
		break;
	}
}

void input_print_header(struct input *in, struct json *w, bool full)
{
	const struct perfev_data_reader *r = perfev_source_data(in->src);
	struct hdr h = {.r = r, .src = in->src, .w = w, .full = full};
	uint64_t doff, dsize;
	bool file = !perfev_data_section(r, &doff, &dsize);
	struct stat st;
	size_t i;
	int ret;

	if (w)
		json_kbool(w, "pipe", perfev_data_is_pipe(r));
	else
		printf("# ========\n");
	/* The file's (or the pipe's) modification time, as perf shows it. */
	ret = strcmp(in->path, "-") ? stat(in->path, &st) : fstat(STDIN_FILENO, &st);
	if (!ret) {
		char buf[64];
		struct tm tm;

		if (localtime_r(&st.st_mtime, &tm) &&
		    strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm)) {
			if (w)
				json_ki64(w, "captured_on", (int64_t)st.st_mtime);
			else
				printf("# captured on    : %s\n", buf);
		}
	}
	/* A stream has no sections: perf says 0, and its features come after the block. */
	if (!file)
		doff = dsize = 0;
	if (w && file) {
		json_ku64(w, "data_offset", doff);
		json_ku64(w, "data_size", dsize);
	} else if (!w) {
		printf("# header version : 1\n# data offset    : %" PRIu64
		       "\n# data size      : %" PRIu64 "\n# feat offset    : %" PRIu64 "\n",
		       doff, dsize, doff + dsize);
		if (!file)
			printf("# ========\n#\n");
	}
	for (i = 1; i < NFEAT; i++)
		if (!perfev_data_feature(r, (int)i, NULL, NULL))
			feature(&h, (int)i);
	if (file && !w) {
		printf("# missing features: ");
		for (i = 1; i < NFEAT; i++)
			if (perfev_data_feature(r, (int)i, NULL, NULL))
				printf("%s ", feat_names[i]);
		printf("\n");
	}
	if (!w && file)
		printf("# ========\n#\n");
}
