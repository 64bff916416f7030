// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The length of an x86 instruction, as perf script finds it before it
 * prints the instruction's bytes (-F insn): legacy prefixes, REX, VEX
 * and EVEX, the opcode (one, two or three bytes), ModRM, SIB, the
 * displacement and the immediate.  Only the length: no operand is named.
 */
#include <errno.h>
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

/* The one-byte opcode map. */
static unsigned int one_byte(unsigned int op)
{
	switch (op) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65: case 0x66: case 0x67:
	case 0xf0: case 0xf2: case 0xf3:
		return PREFIX;
	case 0x62: case 0x63: case 0x69: case 0x6b: case 0xc4: case 0xc5:
		return op == 0x69 ? M | IZ : op == 0x6b ? M | IB : M;
	case 0x68:
		return IZ;
	case 0x6a: case 0xa8: case 0xcd: case 0xd4: case 0xd5: case 0xe4: case 0xe5: case 0xe6:
	case 0xe7:
		return IB;
	case 0x80: case 0x82: case 0x83: case 0xc0: case 0xc1: case 0xc6:
		return M | IB;
	case 0x81: case 0xc7:
		return M | IZ;
	case 0x9a: case 0xea:
		return AP;
	case 0xa0: case 0xa1: case 0xa2: case 0xa3:
		return MOFFS;
	case 0xa9:
		return IZ;
	case 0xc2: case 0xca:
		return IW;
	case 0xc8:
		return IW | IB;
	case 0xe0: case 0xe1: case 0xe2: case 0xe3: case 0xeb:
		return IB;
	case 0xe8: case 0xe9:
		return IZ | F64;
	case 0xf6: case 0xf7:
		return M | GRP3;
	case 0xfe: case 0xff:
		return M;
	}
	if (op < 0x40 && (op & 7) < 4)
		return M; /* add, or, adc, sbb, and, sub, xor, cmp: r/m forms */
	if (op < 0x40 && (op & 7) == 4)
		return IB;
	if (op < 0x40 && (op & 7) == 5)
		return IZ;
	if (op >= 0x70 && op <= 0x7f)
		return IB;
	if (op >= 0x84 && op <= 0x8f)
		return M;
	if (op >= 0xb0 && op <= 0xb7)
		return IB;
	if (op >= 0xb8 && op <= 0xbf)
		return IV;
	if ((op >= 0xd0 && op <= 0xd3) || (op >= 0xd8 && op <= 0xdf))
		return M;
	return 0;
}

/* The two-byte map (0F xx); 0F 38 and 0F 3A are handled apart. */
static unsigned int two_byte(unsigned int op)
{
	switch (op) {
	case 0x0f: /* 3DNow!: the opcode comes as an immediate after the operands */
	case 0x70: case 0x71: case 0x72: case 0x73: case 0xa4: case 0xac: case 0xba: case 0xc2:
	case 0xc4: case 0xc5: case 0xc6:
		return M | IB;
	case 0x04: case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0a: case 0x0b:
	case 0x0c: case 0x0e: case 0x24: case 0x25: case 0x26: case 0x27: case 0x77: case 0x7a:
	case 0x7b: case 0xa0: case 0xa1: case 0xa2: case 0xa6: case 0xa7: case 0xa8: case 0xa9:
	case 0xaa:
		return 0;
	}
	if (op >= 0x30 && op <= 0x3f)
		return 0;
	if (op >= 0x80 && op <= 0x8f)
		return IZ | F64;
	if (op >= 0xc8 && op <= 0xcf)
		return 0;
	return M;
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
		if (!(one_byte(op) & PREFIX))
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
		ops = two_byte(op);
	} else {
		ops = one_byte(op);
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
