// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The length of an x86 instruction, as perf script finds it before it
 * prints the instruction's bytes (-F insn): capstone decodes it.  Bytes
 * capstone finds no instruction in count as perf's decoder counts an
 * undefined opcode: its prefixes and opcode bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <perfev/insn.h>
#include "common/hashmap.h"
#include "symbols/capstone.h"

#define INSN_MAX 15

/*
 * One capstone handle (without details: lengths only) per mode and
 * thread, opened at the first use and kept: opening one costs more than
 * decoding many instructions.
 */
static __thread struct {
	csh h;
	cs_insn *insn;
	int err;
} decoders[2];

static cs_insn *decoder(bool is64, csh *h, const struct perfev__capstone **cs)
{
	__typeof__(decoders[0]) *d = &decoders[is64];

	*cs = perfev__capstone();
	if (!*cs)
		return NULL;
	if (!d->insn && !d->err) {
		if ((*cs)->open(CS_ARCH_X86, is64 ? CS_MODE_64 : CS_MODE_32, &d->h) != CS_ERR_OK) {
			d->err = 1;
			return NULL;
		}
		d->insn = (*cs)->malloc(d->h);
		if (!d->insn) {
			(*cs)->close(&d->h);
			d->err = 1;
			return NULL;
		}
	}
	*h = d->h;
	return d->insn;
}

/* Lengths found lately, per thread: a direct-mapped table keyed by the bytes read. */
#define SEEN_SLOTS 1024
static __thread struct seen {
	uint8_t code[INSN_MAX];
	uint8_t n; /* bytes of @code that were read */
	bool is64;
	int8_t size; /* the answer; 0: an empty slot */
} seen[SEEN_SLOTS];

static const uint8_t legacy_prefixes[] = {0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65,
					  0x66, 0x67, 0xf0, 0xf2, 0xf3};

/* How many legacy prefixes (and a REX, in 64-bit code) @p starts with; *@opsize16 for 0x66. */
static size_t prefix_len(const uint8_t *p, size_t len, bool is64, bool *opsize16)
{
	size_t i = 0;

	*opsize16 = false;
	while (i < len && i < INSN_MAX && memchr(legacy_prefixes, p[i], sizeof(legacy_prefixes)))
		*opsize16 |= p[i++] == 0x66;
	if (is64 && i < len && (p[i] & 0xf0) == 0x40)
		i++;
	return i;
}

static int decode(bool is64, const uint8_t *code, size_t len)
{
	const uint8_t *p = code;
	uint64_t addr = 0;
	const struct perfev__capstone *cs;
	cs_insn *insn;
	csh h;

	insn = decoder(is64, &h, &cs);
	if (!insn)
		return cs ? -ENOMEM : -ENOTSUP;
	return cs->disasm_iter(h, &p, &len, &addr, insn) ? insn->size : 0;
}

/*
 * The ModRM byte at @p and the SIB and displacement it calls for: the
 * length capstone gives "mov (ModRM), %eax" (8B) with them, less its opcode.
 */
static int modrm_len(const uint8_t *p, size_t len, bool is64)
{
	uint8_t proxy[INSN_MAX + 1] = {0x8b};
	int n;

	memcpy(proxy + 1, p, len < INSN_MAX ? len : INSN_MAX);
	n = decode(is64, proxy, INSN_MAX);
	return n > 1 ? n - 1 : -EBADMSG;
}

/*
 * What capstone 4 does not decode, counted as perf's decoder counts it:
 * a VEX or EVEX instruction (AVX-512 mask and some AVX-512BW forms) by
 * its prefix, opcode, ModRM and an immediate in map 0F3A; groups 6 and 7
 * (0F 00, 0F 01: rdpkru, wrpkru) by their ModRM; anything else as an
 * undefined opcode, its prefixes, escapes and opcode byte.
 */
static int undecoded_len(const uint8_t *p, size_t len, bool is64)
{
	bool o16;
	size_t i = prefix_len(p, len, is64, &o16);
	int m;

	if (i < len && (p[i] == 0xc4 || p[i] == 0xc5 || p[i] == 0x62) &&
	    (is64 || (i + 1 < len && (p[i + 1] & 0xc0) == 0xc0))) {
		unsigned int map = 1, nprefix = p[i] == 0xc5 ? 2 : p[i] == 0xc4 ? 3 : 4;

		if (i + nprefix + 1 >= len)
			return -EBADMSG;
		if (p[i] == 0xc4)
			map = p[i + 1] & 0x1f;
		else if (p[i] == 0x62)
			map = p[i + 1] & 0x7;
		i += nprefix + 1;
		m = modrm_len(p + i, len - i, is64);
		if (m < 0)
			return m;
		i += (size_t)m + (map == 3);
	} else {
		if (i < len && p[i] == 0x0f) {
			i++;
			if (i < len && (p[i] == 0x38 || p[i] == 0x3a))
				i++;
			/* Groups 6 and 7 (0F 00, 0F 01: rdpkru, wrpkru...) always take a ModRM. */
			if (i < len && p[i] <= 0x01) {
				m = modrm_len(p + i + 1, len - i - 1, is64);
				if (m < 0)
					return m;
				i += (size_t)m;
			}
		}
		i++;
	}
	return i > len || i > INSN_MAX ? -EBADMSG : (int)i;
}

int perfev_insn_len_x86(const void *buf, size_t len, bool is64)
{
	uint8_t code[INSN_MAX + 1] = {0};
	const uint8_t *p = buf;
	size_t n = len < INSN_MAX ? len : INSN_MAX, i;
	bool o16;
	int size;
	struct seen *slot;

	if (!buf)
		return -EINVAL;
	if (!len)
		return -EBADMSG;
	/*
	 * Near branches in 64-bit code take a 32-bit displacement whatever
	 * a 0x66 prefix says (Intel's rule, perf's and objdump's); capstone
	 * 4 reads a 16-bit one.
	 */
	i = prefix_len(p, n, is64, &o16);
	if (is64 && o16 && i < n &&
	    (p[i] == 0xe8 || p[i] == 0xe9 ||
	     (p[i] == 0x0f && i + 1 < n && (p[i + 1] & 0xf0) == 0x80))) {
		i += (p[i] == 0x0f ? 2 : 1) + 4;
		return i > len || i > INSN_MAX ? -EBADMSG : (int)i;
	}
	/*
	 * Zeros after a short buffer: an instruction that needs them runs
	 * past @len, which capstone could not tell from an undefined one.
	 */
	memcpy(code, buf, n);
	/* A profile's samples come back to the same instructions: the lengths found are kept. */
	slot = &seen[perfev__hash_bytes(code, sizeof(code)) % SEEN_SLOTS];
	if (slot->size && slot->n == n && slot->is64 == is64 && !memcmp(slot->code, code, n))
		return slot->size;
	size = decode(is64, code, INSN_MAX);
	if (size < 0)
		return size;
	if (!size)
		size = undecoded_len(code, n, is64);
	else if ((size_t)size > len)
		size = -EBADMSG;
	memcpy(slot->code, code, n);
	slot->n = (uint8_t)n;
	slot->is64 = is64;
	slot->size = (int8_t)size;
	return size;
}
