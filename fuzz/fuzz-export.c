// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer harness: perfev report's exports (src/cli/output: folded,
 * speedscope, pprof, the HTML page) of a small profile whose names come
 * from the input: quotes, "</script>", invalid UTF-8, control bytes, and
 * one long symbol (4 KiB, or 1 MiB) when the first byte says so.  Each
 * is written into memory and checked: speedscope and the page's data
 * are JSON (RFC 8259) in valid UTF-8, the page's script elements hold
 * no "</script" nor "<!--" of the data, the folded lines end with their
 * count, and pprof's protobuf decodes with every string valid UTF-8
 * (proto3 strings).  The whole page, 50 KiB of template around the
 * data, is written when the flags' bit 5 says, else only its data.
 * Under libFuzzer each input goes to one of the four writers, picked
 * by the flags' bits 6-7: all four in one input gave libFuzzer four
 * writers' coverage to count per input, more than half of its time
 * once the corpus grew.  The replay (make check) writes all four of every input.
 *
 * Input: a flags byte, then NUL-separated strings taken in turn: the
 * events' names, the host and command line, then per stack a byte (its
 * frame count, event, pid, period) and a comm, and per frame a byte of
 * kinds (unresolved, inlined, kernel, source line, build id), a symbol,
 * an object and a byte of address.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "no-coverage.h"
#include "perfev-cli.h"
#include "profile.h"
#include "profile.pb-c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define EXPORT_MAX_INPUT 8192
#define MAX_FRAMES	 16
/*
 * A long symbol: 4 KiB when the flags' bit 0 is set; 1 MiB when they are
 * 0xff, in the corpus replay (make check) or with PERFEV_FUZZ_GIANT set:
 * under libFuzzer, where one such input costs most of a second and its
 * mutations keep the flags, 4 KiB too.
 */
#define LONG_NAME (4U << 10)
#define GIANT	  (1U << 20)

const char *cli_prog = "perfev fuzz";

void cli_error(const char *fmt, ...)
{
}

void cli_die(const char *fmt, ...)
{
	abort(); /* out of memory: not for a profile this small */
}

/* ---- the input ------------------------------------------------------------------ */

struct in {
	const uint8_t *p;
	size_t n;
};

static uint8_t byte(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/* The next NUL-terminated string (or the rest), NULL when the input is used up. */
static const char *str(struct in *in, char *buf, size_t cap)
{
	size_t k = 0;

	if (!in->n)
		return NULL;
	while (in->n && *in->p && k < cap - 1) {
		buf[k++] = (char)*in->p++;
		in->n--;
	}
	if (in->n && !*in->p) {
		in->p++;
		in->n--;
	}
	buf[k] = '\0';
	return buf;
}

/* ---- checks ---------------------------------------------------------------------- */

/*
 * The length of the valid UTF-8 sequence at @p, 0 when it is not one.
 * Written apart from json.c's on purpose: the check must not share the
 * writer's mistakes.
 */
NO_COVERAGE static size_t utf8_seq(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1f;
	else if ((p[0] & 0xf0) == 0xe0)
		len = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		return 0;
	return len;
}

NO_COVERAGE static bool utf8_valid(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = utf8_seq((const unsigned char *)s + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* A strict JSON reader: true when @p .. @end holds one value and blanks. */
struct json_in {
	const char *p, *end;
	int depth;
};

NO_COVERAGE static void blanks(struct json_in *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

NO_COVERAGE static bool lit(struct json_in *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return false;
	j->p += n;
	return true;
}

NO_COVERAGE static bool json_string(struct json_in *j)
{
	if (j->p >= j->end || *j->p++ != '"')
		return false;
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p;

		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (++j->p >= j->end)
				return false;
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (j->p + i >= j->end ||
					    !strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i])
						return false;
				j->p += 5;
			} else if (strchr("\"\\/bfnrt", *j->p) && *j->p) {
				j->p++;
			} else {
				return false;
			}
			continue;
		}
		j->p++;
	}
	return j->p < j->end && *j->p++ == '"';
}

NO_COVERAGE static bool json_number(struct json_in *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return false;
	if (*j->p == '0')
		j->p++;
	else
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return false;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return false;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return j->p > s;
}

NO_COVERAGE static bool json_value(struct json_in *j)
{
	char close;

	blanks(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '"':
		return json_string(j);
	case '{':
	case '[':
		if (++j->depth > 512)
			return false;
		close = *j->p == '{' ? '}' : ']';
		j->p++;
		blanks(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return true;
		}
		for (;;) {
			if (close == '}') {
				blanks(j);
				if (!json_string(j))
					return false;
				blanks(j);
				if (j->p >= j->end || *j->p++ != ':')
					return false;
			}
			if (!json_value(j))
				return false;
			blanks(j);
			if (j->p >= j->end)
				return false;
			if (*j->p == ',') {
				j->p++;
				continue;
			}
			if (*j->p++ != close)
				return false;
			j->depth--;
			return true;
		}
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	default:
		return json_number(j);
	}
}

NO_COVERAGE static void check_json(const char *s, size_t n)
{
	struct json_in j = {s, s + n, 0};

	if (!utf8_valid(s, n) || !json_value(&j))
		abort();
	blanks(&j);
	if (j.p != j.end)
		abort();
}

NO_COVERAGE static const char *find(const char *s, size_t n, const char *what)
{
	return memmem(s, n, what, strlen(what));
}

/* JSON that may stand in a script element: nothing in it ends the script or opens a comment. */
NO_COVERAGE static void check_script_json(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '<' || s[i] == '>')
			abort(); /* "</script", "<!--", "<script" all need one */
	check_json(s, n);
}

/* The page: its data element and its times element each hold such JSON. */
NO_COVERAGE static void check_page(const char *s, size_t n)
{
	static const char *const elements[] = {"id=\"perfev-data\">", "id=\"perfev-times\">"};
	size_t e;

	for (e = 0; e < 2; e++) {
		const char *start = find(s, n, elements[e]), *end;

		if (!start)
			abort();
		start += strlen(elements[e]);
		end = find(start, n - (size_t)(start - s), "</script>");
		if (!end)
			abort();
		check_script_json(start, (size_t)(end - start));
	}
}

NO_COVERAGE static void check_folded(const char *s, size_t n)
{
	const char *line = s, *nl;

	if (memchr(s, '\0', n))
		abort();
	while (line < s + n) {
		const char *sp;

		nl = memchr(line, '\n', (size_t)(s + n - line));
		if (!nl)
			abort(); /* every line ends */
		sp = nl;
		while (sp > line && sp[-1] >= '0' && sp[-1] <= '9')
			sp--;
		if (sp == nl || sp == line || sp[-1] != ' ')
			abort(); /* ... and with " COUNT" */
		line = nl + 1;
	}
}

/* The gzip stream pprof reads, inflated; exits (aborts) on a bad one. */
NO_COVERAGE static uint8_t *gunzip(const char *s, size_t n, size_t *len)
{
	z_stream z = {0};
	size_t cap = 4 * n + 4096;
	uint8_t *out = malloc(cap);
	int rc;

	if (!out || inflateInit2(&z, 15 + 16) != Z_OK)
		abort();
	z.next_in = (Bytef *)s;
	z.avail_in = (uInt)n;
	for (;;) {
		z.next_out = out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END)
			break;
		if (rc != Z_OK && rc != Z_BUF_ERROR)
			abort();
		if (z.avail_out)
			abort(); /* stopped short of the end with room left: cut */
		cap *= 2;
		if (!(out = realloc(out, cap)))
			abort();
	}
	*len = z.total_out;
	inflateEnd(&z);
	return out;
}

NO_COVERAGE static void check_pprof(const char *s, size_t n)
{
	size_t len;
	uint8_t *raw = gunzip(s, n, &len);
	Perftools__Profiles__Profile *pb = perftools__profiles__profile__unpack(NULL, len, raw);

	if (!pb)
		abort();
	if (!pb->n_string_table || pb->string_table[0][0])
		abort(); /* the first string is "" */
	for (size_t i = 0; i < pb->n_string_table; i++)
		if (!utf8_valid(pb->string_table[i], strlen(pb->string_table[i])))
			abort();
	perftools__profiles__profile__free_unpacked(pb, NULL);
	free(raw);
}

typedef int (*writer_fn)(const struct profile *p, size_t ev, FILE *f);

static void export(const struct profile *p, size_t ev, writer_fn fn,
		   void (*check)(const char *, size_t))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	if (fn(p, ev, f))
		abort();
	if (fclose(f))
		abort();
	check(buf, len);
	free(buf);
}

/* ---- the profile ----------------------------------------------------------------- */

static char *giant;
static bool giant_ok = true;	 /* 1 MiB symbols: not while libFuzzer mutates */
static bool every_writer = true; /* all four writers per input: in the replay */

/* Called by libFuzzer before the first input (the replay driver does not). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	giant_ok = getenv("PERFEV_FUZZ_GIANT") != NULL;
	every_writer = false;
	return 0;
}

/* A symbol of @len bytes (at most GIANT): @seed repeated, which may hold anything hostile. */
static const char *giant_name(const char *seed, size_t len)
{
	size_t n = strlen(seed), i;

	if (!giant && !(giant = malloc(GIANT + 1)))
		abort();
	if (!n)
		seed = "</script><!--\"\\", n = strlen(seed);
	for (i = 0; i < len; i++)
		giant[i] = seed[i % n];
	giant[len] = '\0';
	return giant;
}

static void build(struct profile *p, struct in *in, uint8_t flags)
{
	char name[256], sym[256], dso[256], comm[64];
	uint32_t frames[MAX_FRAMES], nev, e, i, n;
	const char *s;
	bool big = flags & 1;

	nev = 1 + (flags >> 1) % 3;
	for (e = 0; e < nev; e++) {
		s = str(in, name, sizeof(name));
		profile_event_add(p, s ? s : "cpu-clock");
	}
	p->meta.hostname = profile_intern(p, str(in, name, sizeof(name)));
	p->meta.cmdline = profile_intern(p, str(in, name, sizeof(name)));
	p->timed = flags & 8;
	while (in->n) {
		uint8_t b = byte(in);
		uint32_t st;

		n = 1 + b % MAX_FRAMES;
		s = str(in, comm, sizeof(comm));
		for (i = 0; i < n && in->n; i++) {
			struct profile_frame f = {0};
			uint8_t k = byte(in);

			f.sym = str(in, sym, sizeof(sym));
			if (f.sym && !*f.sym && (k & 1))
				f.sym = NULL; /* unresolved: shown by address */
			if (f.sym && big) {
				f.sym = giant_name(f.sym,
						   flags == 0xff && giant_ok ? GIANT : LONG_NAME);
				big = false;
			}
			f.dso = str(in, dso, sizeof(dso));
			if (!f.dso)
				f.dso = "[unknown]";
			f.addr = (uint64_t)k << 12 | byte(in);
			f.ip = f.sym ? 0 : f.addr;
			f.offset = k & 0x3f;
			f.inlined = k & 2;
			f.level = k & 4 ? 'k' : '.';
			if (k & 8) {
				f.file = f.dso;
				f.line = k;
			}
			frames[i] = profile_frame_add(p, &f);
			if ((k & 0x30) == 0x30)
				(void)profile_set_build_id(p, f.dso, sym, 1 + k % 20);
		}
		if (!i)
			break;
		st = profile_add_tagged(p, b % nev, s ? s : "", b, b / 2, -1,
					&(struct profile_tags){0}, frames, i,
					1 + (uint64_t)b * 1000);
		p->events[b % nev].samples++;
		p->events[b % nev].period += 1 + (uint64_t)b * 1000;
		if (p->timed)
			profile_add_time(p, st, 1000000ULL * (1 + b), 1 + (uint64_t)b * 1000);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = {data, size};
	struct profile p;
	unsigned int writer;
	uint8_t flags;
	size_t ev;

	if (!size || size > EXPORT_MAX_INPUT)
		return 0;
	flags = byte(&in);
	profile_init(&p);
	build(&p, &in, flags);
	/* Every event, or the first alone. */
	ev = flags & 16 ? 0 : SIZE_MAX;
	/* Under libFuzzer one writer per input, picked by bits 6-7; all four in the replay. */
	writer = every_writer ? 4 : flags >> 6;
	if (writer == 0 || writer == 4)
		export(&p, ev, profile_write_folded, check_folded);
	if (writer == 1 || writer == 4)
		export(&p, ev, profile_write_speedscope, check_json);
	if (writer == 2 || writer == 4)
		export(&p, ev, profile_write_pprof, check_pprof);
	/* The whole page (50 KiB of template) when bit 5 says, else its data alone. */
	if ((writer == 3 || writer == 4) && flags & 0x20)
		export(&p, ev, profile_write_html, check_page);
	else if (writer == 3 || writer == 4)
		export(&p, ev, profile_write_html_tree, check_script_json);
	profile_release(&p);
	return 0;
}
