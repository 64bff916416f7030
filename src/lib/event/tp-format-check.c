// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Raw tracepoint data checked against its format before libtraceevent
 * prints it.  libtraceevent trusts the data: it reads fields at the
 * offsets the format gives, follows dynamic arrays wherever their
 * offset/length word points, prints as many bytes as a __print_hex()
 * length evaluates to, indexes arrays with values from the record and
 * divides by them.  Samples come from files, so each of those reads is
 * walked here first, the way libtraceevent will do it, and the data is
 * refused when one would leave the record.
 *
 * Values that cannot be known here (an address, a shift by 64 or more, a
 * branch taken on one of those) are "inexact": harmless when printed,
 * refused (-EOPNOTSUPP) where they decide a read, a length or a divisor.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "common/internal.h"
#include "event/tp-format-internal.h"

/*
 * Limits on print fmts: operators (libtraceevent recurses once per
 * operator), recursion while checking the syntax (a few levels per
 * bracket), printf widths.
 */
#define MAX_OPS		 2048
#define MAX_PARSE_DEPTH	 160
#define MAX_WIDTH	 4096
#define MAX_WIDTH_DIGITS 4
/* Recursion while walking a print fmt's arguments: its tree is no deeper. */
#define MAX_DEPTH (MAX_OPS + MAX_PARSE_DEPTH + 16)

uint64_t perfev__tp_read_num(const unsigned char *p, unsigned int n, bool big_endian)
{
	uint64_t v = 0;
	unsigned int i;

	if (n != 1 && n != 2 && n != 4 && n != 8)
		return 0;
	for (i = 0; i < n; i++)
		v = v << 8 | p[big_endian ? i : n - 1 - i];
	return v;
}

int perfev__tp_dyn_range(const struct tep_format_field *f, const unsigned char *data, size_t size,
			 bool big_endian, uint64_t *start, uint64_t *len)
{
	uint64_t val, o, l;

	if (f->offset < 0 || f->size < 0 || (uint64_t)f->offset + (uint64_t)f->size > size)
		return -EBADMSG;
	/* The low 16 bits are the offset, the high 16 the length (none in a 2-byte field). */
	val = perfev__tp_read_num(data + f->offset, (unsigned int)f->size, big_endian);
	o = val & 0xffff;
	if (f->size == 2) {
		if (o > size)
			return -EBADMSG;
		l = size - o;
	} else {
		l = val >> 16 & 0xffff;
	}
	/* __rel_loc: relative to the end of the field. */
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		o += (uint64_t)f->offset + (uint64_t)f->size;
	if (o > size || l > size - o)
		return -EBADMSG;
	*start = o;
	*len = l;
	return 0;
}

/* ---- print fmt text, before libtraceevent parses it ----------------------- */

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/*
 * A print fmt's syntax, checked before libtraceevent parses it: its
 * parser dereferences NULL on unknown field names and on several errors
 * after the ':' of a ternary, and recurses once per bracket and operator.
 * The grammar below is what the kernel writes (C expressions over REC->
 * fields and the __print_* and __get_* helpers); anything else is left
 * unparsed and printing shows the fields.  Tokens are split as
 * libtraceevent splits them.
 */
enum tok_type { T_END, T_ITEM, T_STR, T_CHAR, T_DELIM, T_OP, T_BAD };

struct pf_parser {
	struct tep_event *ev;
	const char *s;
	size_t len, pos;
	enum tok_type type; /* the current token */
	size_t start, end;
	int depth, ops;
	unsigned int ntok, refs; /* tokens read, fields named */
	unsigned int sizeof_end; /* the token count after the last sizeof() */
	bool no_index;		 /* after the ':' of a ternary */
	bool indexable;		 /* the last operand was REC->field or a __get_ helper */
	bool bad;
};

static void next_token(struct pf_parser *p)
{
	const char *s = p->s;
	size_t i = p->pos, n = p->len;
	char c;

	p->ntok++;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	p->start = i;
	if (i == n) {
		p->type = T_END;
		p->end = p->pos = i;
		return;
	}
	c = s[i];
	if (ident_char(c)) {
		while (i < n && ident_char(s[i]))
			i++;
		p->type = T_ITEM;
	} else if (c == '"' || c == '\'') {
		/*
		 * Up to the closing quote; a backslash escapes the next
		 * character.  Control characters but tabs and newlines, and
		 * bytes past ASCII, are refused: libtraceevent's tokenizer
		 * goes astray on them.
		 */
		for (i++; i < n && s[i] != c; i++) {
			if (s[i] == '\\' && ++i == n)
				break;
			if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n') || s[i] >= 0x7f)
				break;
		}
		if (i >= n || s[i] != c) {
			p->type = T_BAD;
			return;
		}
		i++;
		p->type = c == '"' ? T_STR : T_CHAR;
	} else if (c == '(' || c == ')' || c == ',') {
		i++;
		p->type = T_DELIM;
	} else if (c && strchr("+-*/%&|^<>=!?:~[]{}", c)) {
		i++;
		/* "->", doubled "++ -- || && << >>", then an optional '='. */
		if (c == '-' && i < n && s[i] == '>') {
			i++;
		} else {
			if (strchr("+-|&<>", c) && i < n && s[i] == c)
				i++;
			if (strchr("+-|&<>!=", c) && i < n && s[i] == '=')
				i++;
		}
		p->type = T_OP;
		if (++p->ops > MAX_OPS)
			p->bad = true;
	} else {
		p->type = T_BAD;
		return;
	}
	p->end = p->pos = i;
}

static bool tok_is(const struct pf_parser *p, enum tok_type t, const char *text)
{
	size_t n = strlen(text);

	return p->type == t && p->end - p->start == n && !memcmp(p->s + p->start, text, n);
}

/* Consume a token of type @t (and text @text, unless NULL), or fail. */
static bool expect(struct pf_parser *p, enum tok_type t, const char *text)
{
	if (p->bad || p->type != t || (text && !tok_is(p, t, text))) {
		p->bad = true;
		return false;
	}
	next_token(p);
	return true;
}

/* The current token names a field of the event. */
static bool field_token(struct pf_parser *p)
{
	char name[256];
	size_t n = p->end - p->start;

	if (p->type != T_ITEM || n >= sizeof(name)) {
		p->bad = true;
		return false;
	}
	memcpy(name, p->s + p->start, n);
	name[n] = '\0';
	if (!tep_find_any_field(p->ev, name)) {
		p->bad = true;
		return false;
	}
	p->refs++;
	next_token(p);
	return true;
}

static bool enter(struct pf_parser *p)
{
	if (++p->depth > MAX_PARSE_DEPTH)
		p->bad = true;
	return !p->bad;
}

static void pf_expr(struct pf_parser *p);
static void pf_unary(struct pf_parser *p);

/* { value, "name" }, ... of __print_flags() and __print_symbolic(). */
static void pf_table(struct pf_parser *p)
{
	do {
		if (!expect(p, T_OP, "{") || !enter(p))
			return;
		pf_expr(p);
		expect(p, T_DELIM, ",");
		/* The name: strings, or what evaluates to one ("((void *)0)"). */
		pf_unary(p);
		expect(p, T_OP, "}");
		p->depth--;
	} while (!p->bad && tok_is(p, T_DELIM, ",") && (next_token(p), true));
}

/* NAME( ... ): the helpers libtraceevent knows, by their arguments. */
static void pf_call(struct pf_parser *p, size_t name, size_t name_len)
{
	const char *f = p->s + name;

#define IS(s) (name_len == sizeof(s) - 1 && !memcmp(f, s, sizeof(s) - 1))
	if (!enter(p))
		return;
	if (name_len > 6 && !memcmp(f, "__get_", 6)) {
		field_token(p);
	} else if (IS("__print_flags") || IS("__print_symbolic")) {
		pf_expr(p);
		expect(p, T_DELIM, ",");
		if (IS("__print_flags")) {
			if (p->type == T_STR || p->type == T_ITEM)
				next_token(p);
			expect(p, T_DELIM, ",");
		}
		pf_table(p);
	} else if (IS("__builtin_expect")) {
		pf_expr(p);
		expect(p, T_DELIM, ",");
		expect(p, T_ITEM, NULL);
	} else if (IS("sizeof")) {
		/* The types libtraceevent sizes, or REC->field (not an array, not empty). */
		static const char *const types[] = {"int",   "long", "__u64", "u64", "__s64", "s64",
						    "__u32", "u32",  "__s32", "s32", "__u16", "u16",
						    "__s16", "s16",  "__u8",  "u8",  "__8",   "s8"};
		size_t k;

		if (tok_is(p, T_ITEM, "REC")) {
			struct tep_format_field *fl;
			char nm[256];

			next_token(p);
			expect(p, T_OP, "->");
			if (!p->bad && p->type == T_ITEM && p->end - p->start < sizeof(nm)) {
				memcpy(nm, p->s + p->start, p->end - p->start);
				nm[p->end - p->start] = '\0';
				fl = tep_find_any_field(p->ev, nm);
				if (!fl || fl->size <= 0 || (fl->flags & TEP_FIELD_IS_ARRAY))
					p->bad = true;
			}
			field_token(p);
		} else {
			bool is_unsigned = tok_is(p, T_ITEM, "unsigned");

			if (is_unsigned)
				next_token(p);
			for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
				if (tok_is(p, T_ITEM, types[k]))
					break;
			if (k < sizeof(types) / sizeof(types[0])) {
				next_token(p);
				if (k == 1 && tok_is(p, T_ITEM, "long"))
					next_token(p);
			} else if (!is_unsigned || !tok_is(p, T_DELIM, ")")) {
				p->bad = true;
			}
		}
		p->sizeof_end = p->ntok + 1; /* after its ')' */
	} else if (IS("__print_hex") || IS("__print_hex_str") || IS("__print_array")) {
		/* Two arguments, three for __print_array(). */
		pf_expr(p);
		expect(p, T_DELIM, ",");
		pf_expr(p);
		if (IS("__print_array")) {
			expect(p, T_DELIM, ",");
			pf_expr(p);
		}
	} else {
		/* libtraceevent knows no other function without its plugins. */
		p->bad = true;
	}
	expect(p, T_DELIM, ")");
	p->depth--;
#undef IS
}

/* ( ... ): a parenthesized expression, (REC)->field, or a cast ("(type)", "(type *)"). */
static void pf_paren(struct pf_parser *p)
{
	size_t items = 0;
	bool star = false, type_like;

	if (!enter(p))
		return;
	/* Peek: a run of items, perhaps one star, then ')'. */
	{
		struct pf_parser q = *p;

		while (q.type == T_ITEM) {
			items++;
			next_token(&q);
		}
		if (items && tok_is(&q, T_OP, "*")) {
			star = true;
			next_token(&q);
		}
		type_like = items && tok_is(&q, T_DELIM, ")");
	}
	if (type_like && items == 1 && !star && tok_is(p, T_ITEM, "REC")) {
		/* (REC)->field */
		next_token(p);
		expect(p, T_DELIM, ")");
		expect(p, T_OP, "->");
		field_token(p);
		p->depth--;
		p->indexable = true;
		return;
	}
	if (type_like) {
		while (p->type == T_ITEM || tok_is(p, T_OP, "*"))
			next_token(p);
		expect(p, T_DELIM, ")");
		p->depth--;
		/*
		 * A cast applies to what follows when it is an item or a bracket;
		 * before an operator ("(unsigned long)-4095") libtraceevent
		 * reads the type as an operand.
		 */
		if (p->type == T_ITEM || tok_is(p, T_DELIM, "("))
			pf_unary(p);
		p->indexable = false;
		return;
	}
	pf_expr(p);
	expect(p, T_DELIM, ")");
	p->depth--;
	p->indexable = false;
	/* libtraceevent reads "(expr) item" as a cast of a non-type: an error. */
	if (p->type == T_ITEM || tok_is(p, T_DELIM, "("))
		p->bad = true;
}

static void pf_primary(struct pf_parser *p)
{
	size_t name, name_len;

	if (p->bad)
		return;
	p->indexable = false;
	switch (p->type) {
	case T_ITEM:
		if (tok_is(p, T_ITEM, "REC")) {
			next_token(p);
			expect(p, T_OP, "->");
			field_token(p);
			p->indexable = true;
			return;
		}
		name = p->start;
		name_len = p->end - p->start;
		next_token(p);
		if (tok_is(p, T_DELIM, "(")) {
			next_token(p);
			pf_call(p, name, name_len);
			p->indexable = name_len > 6 && !memcmp(p->s + name, "__get_", 6);
		} else if (p->type == T_ITEM) {
			/* libtraceevent joins items ("unsigned long") into one atom. */
			while (p->type == T_ITEM)
				next_token(p);
		}
		return;
	case T_STR:
		/* Strings next to each other are one. */
		while (p->type == T_STR)
			next_token(p);
		return;
	case T_CHAR:
		next_token(p);
		return;
	case T_DELIM:
		if (tok_is(p, T_DELIM, "(")) {
			next_token(p);
			pf_paren(p);
			return;
		}
		break;
	default:
		break;
	}
	p->bad = true;
}

static void pf_unary(struct pf_parser *p)
{
	if (p->bad)
		return;
	if (tok_is(p, T_OP, "!") || tok_is(p, T_OP, "~") || tok_is(p, T_OP, "-") ||
	    tok_is(p, T_OP, "+")) {
		next_token(p);
		if (enter(p))
			pf_unary(p);
		p->depth--;
		return;
	}
	pf_primary(p);
	/*
	 * One index, of a field or a helper's array: libtraceevent
	 * dereferences NULL on a second one.
	 */
	if (!p->bad && tok_is(p, T_OP, "[")) {
		if (p->no_index || !p->indexable) {
			p->bad = true;
			return;
		}
		next_token(p);
		if (!enter(p))
			return;
		pf_expr(p);
		expect(p, T_OP, "]");
		p->depth--;
		if (tok_is(p, T_OP, "["))
			p->bad = true;
	}
}

static bool binary_op(const struct pf_parser *p)
{
	static const char *const ops[] = {"||", "&&", "|",  "^",  "&", "==", "!=", "<", ">",
					  "<=", ">=", "<<", ">>", "+", "-",  "*",  "/", "%"};
	size_t k;

	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (tok_is(p, T_OP, ops[k]))
			return true;
	return false;
}

/*
 * An expression.  After the ':' of a ternary libtraceevent loses track of
 * an index (it dereferences NULL): none is allowed there.
 */
static void pf_expr(struct pf_parser *p)
{
	bool no_index = p->no_index;

	if (!enter(p))
		return;
	pf_unary(p);
	while (!p->bad && binary_op(p)) {
		bool divides = tok_is(p, T_OP, "/") || tok_is(p, T_OP, "%");
		unsigned int refs = p->refs, ntok;
		size_t st;

		next_token(p);
		ntok = p->ntok;
		st = p->start;
		pf_unary(p);
		/*
		 * libtraceevent folds constant operations while parsing: a
		 * constant divisor must be a number other than 0.
		 */
		if (divides && p->refs == refs &&
		    !(p->ntok == ntok + 1 && p->s[st] >= '1' && p->s[st] <= '9') &&
		    !(p->sizeof_end == p->ntok && p->len - st > 6 &&
		      !memcmp(p->s + st, "sizeof", 6)))
			p->bad = true;
	}
	if (!p->bad && tok_is(p, T_OP, "?")) {
		next_token(p);
		pf_expr(p);
		expect(p, T_OP, ":");
		p->no_index = true;
		pf_expr(p);
		p->no_index = no_index;
	}
	p->depth--;
}

bool perfev__tp_print_fmt_ok(struct tep_event *ev, const char *pf, size_t len)
{
	struct pf_parser p = {.ev = ev, .s = pf, .len = len};

	next_token(&p);
	/* The format (strings next to each other are joined), then the arguments. */
	if (!expect(&p, T_STR, NULL))
		return false;
	while (p.type == T_STR)
		next_token(&p);
	while (!p.bad && tok_is(&p, T_DELIM, ",")) {
		next_token(&p);
		pf_expr(&p);
	}
	return !p.bad && p.type == T_END;
}

/* ---- raw data, before libtraceevent prints it ----------------------------- */

struct check {
	struct tep_event *ev;
	const unsigned char *data;
	size_t size;
	unsigned int long_size;
	bool big_endian;
	int depth;
	int err; /* the first failure */
};

struct val {
	uint64_t v;
	bool exact;
};

static struct val fail(struct check *c, int err)
{
	if (!c->err)
		c->err = err;
	return (struct val){0, false};
}

static struct val exact(uint64_t v)
{
	return (struct val){v, true};
}

/* The field a print argument names, found as libtraceevent finds it. */
static struct tep_format_field *resolve(struct check *c, struct tep_format_field *f,
					const char *name)
{
	if (f)
		return f;
	return name ? tep_find_any_field(c->ev, name) : NULL;
}

static bool type_is(const char *t, size_t n, const char *what)
{
	return strlen(what) == n && !memcmp(t, what, n);
}

/*
 * A typecast of @v to type @t, as libtraceevent casts: pointers, structs
 * and types it does not know keep the value; the kernel's fixed-width
 * names, char, short and int (signed or not) keep their low bits.
 */
static struct val cast(struct check *c, struct val v, const char *t, bool pointer)
{
	size_t n;

	if (!t)
		return fail(c, -EOPNOTSUPP);
	n = strlen(t);
	if (pointer) {
		/* Through an array index: "T *" is cast as T. */
		if (!n)
			return fail(c, -EOPNOTSUPP);
		if (t[n - 1] != '*')
			return v;
		if (n < 3)
			return fail(c, -EOPNOTSUPP);
		n -= 2;
	}
	if (!n)
		return fail(c, -EOPNOTSUPP);
	if (t[n - 1] == '*' || (n >= 6 && !memcmp(t, "struct", 6)))
		return v;
	if (type_is(t, n, "u8") || type_is(t, n, "s8"))
		return (struct val){v.v & 0xff, v.exact};
	if (type_is(t, n, "u16") || type_is(t, n, "s16"))
		return (struct val){v.v & 0xffff, v.exact};
	if (type_is(t, n, "u32") || type_is(t, n, "s32"))
		return (struct val){v.v & 0xffffffff, v.exact};
	if (n >= 9 && !memcmp(t, "unsigned ", 9)) {
		t += 9;
		n -= 9;
	}
	if (type_is(t, n, "char"))
		return (struct val){v.v & 0xff, v.exact};
	if (type_is(t, n, "short"))
		return (struct val){v.v & 0xffff, v.exact};
	if (type_is(t, n, "int"))
		return (struct val){v.v & 0xffffffff, v.exact};
	return v;
}

static struct val num(struct check *c, struct tep_print_arg *a);

/* A dynamic field's bytes, or a failure when they lie outside the record. */
static bool dyn(struct check *c, const struct tep_format_field *f, uint64_t *start, uint64_t *len)
{
	if (!f) {
		fail(c, -EOPNOTSUPP);
		return false;
	}
	if (perfev__tp_dyn_range(f, c->data, c->size, c->big_endian, start, len)) {
		fail(c, -EBADMSG);
		return false;
	}
	return true;
}

/* arr[i]: libtraceevent reads the element at an offset computed in 32 bits. */
static struct val index_op(struct check *c, struct tep_print_arg *a)
{
	struct tep_print_arg *l = a->op.left, *typearg = NULL;
	struct tep_format_field *f;
	struct val right = num(c, a->op.right), r;
	uint64_t start, len;
	unsigned int es = c->long_size;
	uint32_t off;
	bool reads;

	while (l && l->type == TEP_PRINT_TYPE) {
		if (!typearg)
			typearg = l;
		l = l->typecast.item;
	}
	if (!l)
		return fail(c, -EOPNOTSUPP);
	switch (l->type) {
	case TEP_PRINT_DYNAMIC_ARRAY:
		if (!dyn(c, l->dynarray.field, &start, &len))
			return fail(c, -EBADMSG);
		if (!right.exact)
			return fail(c, -EOPNOTSUPP);
		off = (uint32_t)(start + right.v);
		if (l->dynarray.field->elementsize)
			es = l->dynarray.field->elementsize;
		break;
	case TEP_PRINT_FIELD:
		f = resolve(c, l->field.field, l->field.name);
		if (!f)
			return exact(0);
		if (!right.exact)
			return fail(c, -EOPNOTSUPP);
		es = f->elementsize;
		off = (uint32_t)((uint64_t)(int64_t)f->offset + right.v * es);
		break;
	default:
		num(c, l);
		return exact(0);
	}
	/* libtraceevent compares in int, then reads 1, 2, 4 or 8 bytes at the unsigned offset. */
	reads = (es == 1 || es == 2 || es == 4 || es == 8) &&
		(int64_t)(int32_t)off + (int64_t)(int32_t)es <= (int64_t)c->size;
	if (reads && (uint64_t)off + es > c->size)
		return fail(c, -EBADMSG);
	r = exact(reads ? perfev__tp_read_num(c->data + off, es, c->big_endian) : 0);
	if (typearg)
		r = cast(c, r, typearg->typecast.type, true);
	return r;
}

static struct val op(struct check *c, struct tep_print_arg *a)
{
	const char *o = a->op.op;
	struct val l, r;
	uint64_t v = 0;
	bool ex;

	if (!o)
		return fail(c, -EOPNOTSUPP);
	if (!strcmp(o, "["))
		return index_op(c, a);
	if (!strcmp(o, "?")) {
		struct tep_print_arg *alt = a->op.right;

		l = num(c, a->op.left);
		if (!alt || alt->type != TEP_PRINT_OP)
			return fail(c, -EOPNOTSUPP);
		if (l.exact)
			return num(c, l.v ? alt->op.left : alt->op.right);
		num(c, alt->op.left);
		num(c, alt->op.right);
		return (struct val){0, false};
	}
	l = num(c, a->op.left);
	r = num(c, a->op.right);
	ex = l.exact && r.exact;
	switch (o[0]) {
	case '!':
		v = !o[1] ? !r.v : o[1] == '=' ? l.v != r.v : 0;
		break;
	case '~':
		v = ~r.v;
		break;
	case '|':
		v = o[1] ? (l.v || r.v) : (l.v | r.v);
		break;
	case '&':
		v = o[1] ? (l.v && r.v) : (l.v & r.v);
		break;
	case '<':
	case '>':
		if (o[1] == o[0]) {
			/* A shift by 64 or more is the machine's business: inexact. */
			if (r.v >= 64)
				return (struct val){0, false};
			v = o[0] == '<' ? l.v << r.v : l.v >> r.v;
		} else if (!o[1]) {
			v = o[0] == '<' ? l.v < r.v : l.v > r.v;
		} else if (o[1] == '=') {
			v = o[0] == '<' ? l.v <= r.v : l.v >= r.v;
		}
		break;
	case '=':
		v = o[1] == '=' ? l.v == r.v : 0;
		break;
	case '-':
		v = l.v - r.v;
		break;
	case '+':
		v = l.v + r.v;
		break;
	case '*':
		v = l.v * r.v;
		break;
	case '/':
	case '%':
		/* libtraceevent divides as it goes: a zero divisor would kill the process. */
		if (!r.exact)
			return fail(c, -EOPNOTSUPP);
		if (!r.v)
			return fail(c, -EBADMSG);
		v = o[0] == '/' ? l.v / r.v : l.v % r.v;
		break;
	default:
		break;
	}
	return (struct val){v, ex};
}

/* A print argument evaluated as a number, as libtraceevent's evaluator does. */
static struct val num(struct check *c, struct tep_print_arg *a)
{
	struct tep_format_field *f;
	struct val r = exact(0);
	uint64_t start, len;

	if (!a)
		return fail(c, -EOPNOTSUPP);
	if (c->err)
		return r;
	if (++c->depth > MAX_DEPTH) {
		c->depth--;
		return fail(c, -EOPNOTSUPP);
	}
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			r = fail(c, -EOPNOTSUPP);
		else
			r = exact(strtoull(a->atom.atom, NULL, 0));
		break;
	case TEP_PRINT_FIELD:
		f = resolve(c, a->field.field, a->field.name);
		/* Fields were all checked to lie inside the record. */
		if (f && f->offset >= 0 && f->size >= 0 &&
		    (uint64_t)f->offset + (uint64_t)f->size <= c->size)
			r = exact(perfev__tp_read_num(c->data + f->offset, (unsigned int)f->size,
						      c->big_endian));
		break;
	case TEP_PRINT_TYPE:
		r = cast(c, num(c, a->typecast.item), a->typecast.type, false);
		break;
	case TEP_PRINT_OP:
		r = op(c, a);
		break;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (dyn(c, a->dynarray.field, &start, &len))
			r = exact(len);
		break;
	case TEP_PRINT_DYNAMIC_ARRAY:
		/* Its address: fine to print, useless as a length. */
		if (dyn(c, a->dynarray.field, &start, &len))
			r = (struct val){0, false};
		break;
	case TEP_PRINT_FUNC:
		r = fail(c, -EOPNOTSUPP);
		break;
	default:
		/* Flags, symbols, strings, hex and arrays are 0 as numbers. */
		break;
	}
	c->depth--;
	return r;
}

/*
 * __print_hex(), __print_array(): @n elements of @elem bytes from a
 * dynamic array or a field; libtraceevent takes the count as an unsigned
 * int.
 */
static void region(struct check *c, struct tep_print_arg *t, struct val n, uint64_t elem)
{
	struct tep_format_field *f;
	uint64_t start, len, count;

	if (!t)
		goto unsupported;
	if (t->type == TEP_PRINT_DYNAMIC_ARRAY) {
		if (!dyn(c, t->dynarray.field, &start, &len))
			return;
	} else if (t->type == TEP_PRINT_FIELD) {
		f = resolve(c, t->field.field, t->field.name);
		if (!f)
			return;
		start = (uint64_t)(int64_t)f->offset;
	} else {
		/* libtraceevent would read another argument type as a field. */
		goto unsupported;
	}
	if (!n.exact)
		goto unsupported;
	count = (uint32_t)n.v;
	if (count && (start > c->size || count * elem > c->size - start))
		fail(c, -EBADMSG);
	return;
unsupported:
	fail(c, -EOPNOTSUPP);
}

/* A print argument printed as a string, as libtraceevent prints it. */
static void str(struct check *c, struct tep_print_arg *a)
{
	struct tep_format_field *f;
	uint64_t start, len;
	struct val v;
	int64_t es;

	if (!a) {
		fail(c, -EOPNOTSUPP);
		return;
	}
	if (c->err)
		return;
	if (++c->depth > MAX_DEPTH) {
		fail(c, -EOPNOTSUPP);
		c->depth--;
		return;
	}
	switch (a->type) {
	case TEP_PRINT_FLAGS:
		num(c, a->flags.field);
		break;
	case TEP_PRINT_SYMBOL:
		num(c, a->symbol.field);
		break;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		region(c, a->hex.field, num(c, a->hex.size), 1);
		break;
	case TEP_PRINT_INT_ARRAY:
		v = num(c, a->int_array.count);
		es = (int64_t)(int32_t)num(c, a->int_array.el_size).v;
		/* An element size other than 1, 2, 4 or 8 is read byte by byte. */
		if (es != 1 && es != 2 && es != 4 && es != 8)
			es = 1;
		region(c, a->int_array.field, v, (uint64_t)es);
		break;
	case TEP_PRINT_STRING:
		f = resolve(c, a->string.field, a->string.string);
		if (f)
			dyn(c, f, &start, &len);
		break;
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		f = resolve(c, a->bitmask.field, a->bitmask.bitmask);
		if (f)
			dyn(c, f, &start, &len);
		else if (a->type == TEP_PRINT_CPUMASK)
			fail(c, -EOPNOTSUPP); /* libtraceevent dereferences the missing field */
		break;
	case TEP_PRINT_OP:
		if (!a->op.op || a->op.op[0] != '?')
			break;
		v = num(c, a->op.left);
		if (!a->op.right || a->op.right->type != TEP_PRINT_OP) {
			fail(c, -EOPNOTSUPP);
		} else if (v.exact) {
			str(c, v.v ? a->op.right->op.left : a->op.right->op.right);
		} else {
			str(c, a->op.right->op.left);
			str(c, a->op.right->op.right);
		}
		break;
	case TEP_PRINT_FUNC:
		fail(c, -EOPNOTSUPP);
		break;
	default:
		/* Atoms, fields (checked), typecasts and quoted strings. */
		break;
	}
	c->depth--;
}

/*
 * The arguments a print fmt's conversions consume, paired as libtraceevent
 * pairs them: a '*' takes one as a width or precision, which must be a
 * small exact number (a huge width makes printing take forever), and so
 * must widths written in the format.
 */
static void widths(struct check *c, const char *fmt, struct tep_print_arg *arg)
{
	const char *p = fmt;

	while (p && *p && !c->err) {
		if (*p != '%' || p[1] == '%') {
			/* Literal text: up to a lone '%', backslash escapes skipped. */
			while (*p) {
				if (*p == '\\') {
					if (!p[1]) {
						fail(c, -EOPNOTSUPP);
						return;
					}
					p += 2;
				} else if (*p == '%') {
					if (p[1] != '%')
						break;
					p += 2;
				} else {
					p++;
				}
			}
			continue;
		}
		for (p++; *p; p++) {
			if (strchr("#hlLzZ.-+", *p))
				continue;
			if (*p >= '0' && *p <= '9') {
				int digits = 1;

				while (p[1] >= '0' && p[1] <= '9') {
					p++;
					digits++;
				}
				if (digits > MAX_WIDTH_DIGITS)
					fail(c, -EOPNOTSUPP);
				continue;
			}
			if (*p == '*') {
				struct val w;

				if (!arg)
					return;
				w = num(c, arg);
				if (!w.exact || (int32_t)w.v < 0 || (int32_t)w.v > MAX_WIDTH)
					fail(c, w.exact ? -EBADMSG : -EOPNOTSUPP);
				arg = arg->next;
				continue;
			}
			if (strchr("pcduixXos", *p) && arg)
				arg = arg->next;
			p++;
			break;
		}
	}
}

int perfev__tp_check_data(struct tep_event *ev, const unsigned char *data, size_t size,
			  unsigned int long_size, bool big_endian)
{
	struct tep_format_field *lists[2] = {ev->format.common_fields, ev->format.fields}, *f;
	struct check c = {
	    .ev = ev, .data = data, .size = size, .long_size = long_size, .big_endian = big_endian};
	struct tep_print_arg *a;
	uint64_t start, len;
	size_t k;

	if (size > INT_MAX - PERFEV__TP_PAD)
		return -EBADMSG;
	/* Every field is printed when the print fmt failed to parse: all must fit. */
	for (k = 0; k < 2; k++)
		for (f = lists[k]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 ||
			    (uint64_t)f->offset + (uint64_t)f->size > size)
				return -EBADMSG;
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) &&
			    perfev__tp_dyn_range(f, data, size, big_endian, &start, &len))
				return -EBADMSG;
		}
	if (ev->flags & TEP_EVENT_FL_FAILED)
		return 0;
	/* Binary printk records carry their own format and arguments: not checked here. */
	if (ev->flags & TEP_EVENT_FL_ISBPRINT)
		return -EOPNOTSUPP;
	widths(&c, ev->print_fmt.format, ev->print_fmt.args);
	for (a = ev->print_fmt.args; a && !c.err; a = a->next) {
		num(&c, a);
		str(&c, a);
	}
	return c.err;
}
