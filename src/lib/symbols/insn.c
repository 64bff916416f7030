// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The length of an x86 instruction, as perf script finds it before it
 * prints the instruction's bytes (-F insn): legacy prefixes, REX, VEX
 * and EVEX, the opcode (one, two or three bytes), ModRM, SIB, the
 * displacement and the immediate.  Only the length: no operand is named.
 */
#include <errno.h>
#include <stdint.h>
#include <perfev/insn.h>

/* Operands of an opcode: a ModRM byte and the immediate that follows. */
enum {
	M = 1 << 0,	 /* ModRM */
	IB = 1 << 1,	 /* 8-bit immediate */
	IW = 1 << 2,	 /* 16-bit */
	IZ = 1 << 3,	 /* 16 or 32 bits by operand size */
	IV = 1 << 4,	 /* 16, 32 or 64 bits by operand size (mov r, imm) */
	MOFFS = 1 << 5,	 /* an address-sized offset */
	AP = 1 << 6,	 /* a far pointer: 16 bits and 16 or 32 */
	GRP3 = 1 << 7,	 /* F6/F7: an immediate only for /0 and /1 (test) */
	F64 = 1 << 8,	 /* near branches: 32-bit displacement whatever the 0x66 prefix */
	PREFIX = 1 << 9, /* a legacy prefix */
};

/*
 * The one-byte opcode map: 00-3F's arithmetic (r/m forms, then AL, imm8
 * and eAX, immz), the prefixes, and what takes operands.
 */
static const uint16_t one_byte[256] = {
    [0x00 ... 0x03] = M,
    [0x04] = IB,
    [0x05] = IZ,
    [0x08 ... 0x0b] = M,
    [0x0c] = IB,
    [0x0d] = IZ,
    [0x10 ... 0x13] = M,
    [0x14] = IB,
    [0x15] = IZ,
    [0x18 ... 0x1b] = M,
    [0x1c] = IB,
    [0x1d] = IZ,
    [0x20 ... 0x23] = M,
    [0x24] = IB,
    [0x25] = IZ,
    [0x26] = PREFIX,
    [0x28 ... 0x2b] = M,
    [0x2c] = IB,
    [0x2d] = IZ,
    [0x2e] = PREFIX,
    [0x30 ... 0x33] = M,
    [0x34] = IB,
    [0x35] = IZ,
    [0x36] = PREFIX,
    [0x38 ... 0x3b] = M,
    [0x3c] = IB,
    [0x3d] = IZ,
    [0x3e] = PREFIX,
    [0x62 ... 0x63] = M, /* bound (EVEX in 64-bit code), movsxd */
    [0x64 ... 0x67] = PREFIX,
    [0x68] = IZ,
    [0x69] = M | IZ,
    [0x6a] = IB,
    [0x6b] = M | IB,
    [0x70 ... 0x7f] = IB, /* jcc rel8 */
    [0x80] = M | IB,
    [0x81] = M | IZ,
    [0x82 ... 0x83] = M | IB,
    [0x84 ... 0x8f] = M,
    [0x9a] = AP,
    [0xa0 ... 0xa3] = MOFFS,
    [0xa8] = IB,
    [0xa9] = IZ,
    [0xb0 ... 0xb7] = IB,
    [0xb8 ... 0xbf] = IV,
    [0xc0 ... 0xc1] = M | IB,
    [0xc2] = IW,
    [0xc4 ... 0xc5] = M, /* les, lds (VEX in 64-bit code) */
    [0xc6] = M | IB,
    [0xc7] = M | IZ,
    [0xc8] = IW | IB,
    [0xca] = IW,
    [0xcd] = IB,
    [0xd0 ... 0xd3] = M,
    [0xd4 ... 0xd5] = IB,
    [0xd8 ... 0xdf] = M, /* x87 */
    [0xe0 ... 0xe7] = IB,
    [0xe8 ... 0xe9] = IZ | F64,
    [0xea] = AP,
    [0xeb] = IB,
    [0xf0] = PREFIX,
    [0xf2 ... 0xf3] = PREFIX,
    [0xf6 ... 0xf7] = M | GRP3,
    [0xfe ... 0xff] = M,
};

/*
 * The two-byte map (0F xx): ModRM but where marked otherwise; 0F 38 and
 * 0F 3A are handled apart.  0F 0F is 3DNow!, whose opcode comes as an
 * immediate after the operands.
 */
#define NONE 0x8000
static const uint16_t two_byte[256] = {
    [0x04 ... 0x0c] = NONE,
    [0x0e] = NONE,
    [0x0f] = M | IB,
    [0x24 ... 0x27] = NONE,
    [0x30 ... 0x3f] = NONE,
    [0x70 ... 0x73] = M | IB,
    [0x77] = NONE,
    [0x7a ... 0x7b] = NONE,
    [0x80 ... 0x8f] = IZ | F64, /* jcc rel32 */
    [0xa0 ... 0xa2] = NONE,
    [0xa4] = M | IB,
    [0xa6 ... 0xaa] = NONE,
    [0xac] = M | IB,
    [0xba] = M | IB,
    [0xc2] = M | IB,
    [0xc4 ... 0xc6] = M | IB,
    [0xc8 ... 0xcf] = NONE,
};

static unsigned int two_byte_ops(unsigned int op)
{
	unsigned int ops = two_byte[op];

	return ops & NONE ? 0 : ops ? ops : M;
}

/* The opcodes of VEX and EVEX map 1 (0F) that take an 8-bit immediate. */
static bool vex_map1_ib(unsigned int op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6);
}

struct cursor {
	const unsigned char *p;
	size_t len, i;
};

static int take(struct cursor *c, size_t n)
{
	if (n > c->len - c->i)
		return -EBADMSG;
	c->i += n;
	return 0;
}

/* ModRM, SIB and displacement for an address size of @asize bytes. */
static int modrm(struct cursor *c, unsigned int asize, unsigned int *reg)
{
	unsigned int b, mod, rm;

	if (c->i >= c->len)
		return -EBADMSG;
	b = c->p[c->i++];
	mod = b >> 6;
	rm = b & 7;
	*reg = b >> 3 & 7;
	if (mod == 3)
		return 0;
	if (asize == 2) {
		if (mod == 1)
			return take(c, 1);
		return take(c, mod == 2 || (mod == 0 && rm == 6) ? 2 : 0);
	}
	if (rm == 4) {
		if (c->i >= c->len)
			return -EBADMSG;
		/* A SIB without a base register takes a 32-bit displacement. */
		if (mod == 0 && (c->p[c->i] & 7) == 5)
			mod = 2;
		c->i++;
	}
	if (mod == 0 && rm == 5)
		mod = 2;
	return take(c, mod == 1 ? 1 : mod == 2 ? 4 : 0);
}

int perfev_insn_len_x86(const void *buf, size_t len, bool is64)
{
	struct cursor c = {buf, len > 15 ? 15 : len, 0};
	unsigned int op, ops, reg = 0, osize = 4, asize = is64 ? 8 : 4;
	bool rex_w = false;
	int err;

	if (!buf)
		return -EINVAL;
	/* Legacy prefixes, then (64-bit code) one REX. */
	for (;;) {
		if (c.i >= c.len)
			return -EBADMSG;
		op = c.p[c.i];
		if (!(one_byte[op] & PREFIX))
			break;
		if (op == 0x66)
			osize = 2;
		else if (op == 0x67)
			asize = is64 ? 4 : 2;
		c.i++;
	}
	if (is64 && op >= 0x40 && op <= 0x4f) {
		rex_w = op & 8;
		if (++c.i >= c.len)
			return -EBADMSG;
		op = c.p[c.i];
	}
	if (rex_w)
		osize = 8;
	/* VEX (C4, C5) and EVEX (62): in 32-bit code only when ModRM's mod would be 3. */
	if ((op == 0xc4 || op == 0xc5 || op == 0x62) &&
	    (is64 || (c.i + 1 < c.len && (c.p[c.i + 1] & 0xc0) == 0xc0))) {
		unsigned int map = 1, nprefix = op == 0xc5 ? 2 : op == 0xc4 ? 3 : 4;

		if (c.i + nprefix >= c.len)
			return -EBADMSG;
		if (op == 0xc4)
			map = c.p[c.i + 1] & 0x1f;
		else if (op == 0x62)
			map = c.p[c.i + 1] & 0x7;
		c.i += nprefix;
		op = c.p[c.i++];
		/* vzeroupper and vzeroall: no operands. */
		if (map == 1 && op == 0x77)
			return (int)c.i;
		err = modrm(&c, asize, &reg);
		if (!err && (map == 3 || (map == 1 && vex_map1_ib(op))))
			err = take(&c, 1);
		return err ? err : (int)c.i;
	}
	c.i++;
	if (op == 0x0f) {
		if (c.i >= c.len)
			return -EBADMSG;
		op = c.p[c.i++];
		if (op == 0x38 || op == 0x3a) {
			if (take(&c, 1))
				return -EBADMSG;
			err = modrm(&c, asize, &reg);
			if (!err && op == 0x3a)
				err = take(&c, 1);
			return err ? err : (int)c.i;
		}
		ops = two_byte_ops(op);
	} else {
		ops = one_byte[op];
	}
	if ((ops & M) && (err = modrm(&c, asize, &reg)))
		return err;
	if ((ops & GRP3) && reg < 2)
		ops |= op == 0xf6 ? IB : IZ;
	if (ops & IB)
		err = take(&c, 1);
	if (!err && (ops & IW))
		err = take(&c, 2);
	if (!err && (ops & IZ))
		err = take(&c, osize == 2 && !(is64 && (ops & F64)) ? 2 : 4);
	if (!err && (ops & IV))
		err = take(&c, osize);
	if (!err && (ops & MOFFS))
		err = take(&c, asize);
	if (!err && (ops & AP))
		err = take(&c, osize == 2 ? 4 : 6);
	return err ? err : (int)c.i;
}
