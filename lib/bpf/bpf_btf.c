/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Map keys and values as the object's BTF types (contract: tp_prog.h,
 * tp_prog_bpf_map_update_text and tp_prog_bpf_map_dump_btf): integers and
 * enums, bitfields, char arrays as strings, and structs and arrays of all
 * of these nested up to BTF_TEXT_DEPTH, read from text and printed as
 * text in the same syntax. Types come from the object's .BTF
 * (include/uapi/linux/btf.h kinds, read with libbpf's btf.h accessors);
 * typedefs and qualifiers are looked through, and a typedef named __be16,
 * __be32 or __be64 on the way (linux/types.h) means network byte order,
 * so an address key reads and prints as the number a person writes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "bpf_priv.h"

/* The integer behind id: its size and signedness, and whether a __be*
 * typedef named it; 0, or -1 when it is not an integer or enum. */
static int
int_type(const struct btf *btf, uint32_t id, uint32_t *size, int *sign, int *be)
{
	const struct btf_type *t;

	*be = 0;
	for (int depth = 0; depth < 32; depth++) {
		t = btf__type_by_id(btf, id);
		if (t == NULL)
			return -1;
		if (btf_is_typedef(t)) {
			const char *n = btf__name_by_offset(btf, t->name_off);

			if (n != NULL && strncmp(n, "__be", 4) == 0)
				*be = 1;
		}
		if (btf_is_mod(t) || btf_is_typedef(t)) {
			id = t->type;
			continue;
		}
		if (btf_is_int(t)) {
			if (btf_int_offset(t) != 0 || btf_int_bits(t) != t->size * 8 ||
			    t->size > 8)
				return -1;
			*size = t->size;
			*sign = (btf_int_encoding(t) & BTF_INT_SIGNED) != 0;
			return 0;
		}
		if (btf_is_enum(t) || btf_is_enum64(t)) {
			*size = t->size;
			*sign = btf_kflag(t);
			return t->size <= 8 ? 0 : -1;
		}
		return -1;
	}
	return -1;
}

/* Look through typedefs and qualifiers. */
static const struct btf_type *
resolved(const struct btf *btf, uint32_t *id)
{
	int r = btf__resolve_type(btf, *id);

	if (r < 0)
		return NULL;
	*id = (uint32_t)r;
	return btf__type_by_id(btf, *id);
}

/* One integer (decimal, 0x hex, negative for signed; a dotted IPv4
 * address for a 4-byte __be32) into size bytes at out. */
static int
put_int(const struct btf *btf, uint32_t id, const char *s, uint8_t *out)
{
	uint32_t size;
	int sign, be;
	uint64_t v;
	char *end;

	if (int_type(btf, id, &size, &sign, &be) < 0 || *s == '\0')
		return -1;
	if (be && size == 4 && strchr(s, '.') != NULL) {
		struct in_addr a;

		if (inet_pton(AF_INET, s, &a) != 1)
			return -1;
		memcpy(out, &a, 4);
		return 0;
	}
	errno = 0;
	if (sign && *s == '-') {
		long long x = strtoll(s, &end, 0);

		if (size < 8 && (x < -(1LL << (size * 8 - 1))))
			return -1;
		v = (uint64_t)x;
	} else {
		v = strtoull(s, &end, 0);
		if (*s == '-' || (size < 8 && v >> (size * 8) != 0))
			return -1;
	}
	if (errno != 0 || *end != '\0')
		return -1;
	for (uint32_t b = 0; b < size; b++) /* host order is little-endian here */
		out[be ? size - 1 - b : b] = (uint8_t)(v >> (8 * b));
	return 0;
}

/* Nesting a value may have (struct in array in struct ...). */
#define BTF_TEXT_DEPTH 8

/* An array of char (what C writes as a string): its element, looked
 * through, is the 1-byte integer BTF calls char (BTF_INT_CHAR, or named
 * "char" as clang emits it). */
static int
is_char_array(const struct btf *btf, const struct btf_type *t)
{
	uint32_t id;
	const struct btf_type *e;
	const char *n;

	if (!btf_is_array(t))
		return 0;
	id = btf_array(t)->type;
	e = resolved(btf, &id);
	if (e == NULL || !btf_is_int(e) || e->size != 1)
		return 0;
	n = btf__name_by_offset(btf, e->name_off);
	return (btf_int_encoding(e) & BTF_INT_CHAR) ||
	       (n != NULL && strstr(n, "char") != NULL);
}

/* The text being read: s up to end. */
struct txt {
	const char *s, *end;
};

static void
skip_ws(struct txt *x)
{
	while (x->s < x->end && (*x->s == ' ' || *x->s == '\t'))
		x->s++;
}

static int
take(struct txt *x, char c)
{
	skip_ws(x);
	if (x->s < x->end && *x->s == c) {
		x->s++;
		return 1;
	}
	return 0;
}

/* A number or address token up to a separator, into tok. */
static int
token(struct txt *x, char *tok, size_t len)
{
	size_t n = 0;

	skip_ws(x);
	while (x->s < x->end && !strchr(",:{}[]\" \t", *x->s)) {
		if (n + 1 >= len)
			return -1;
		tok[n++] = *x->s++;
	}
	tok[n] = '\0';
	return n > 0 ? 0 : -1;
}

/* "..." into a char array of cap bytes, zero-padded; \" and \\ escape. */
static int
parse_string(struct txt *x, uint8_t *out, uint32_t cap)
{
	uint32_t n = 0;

	if (!take(x, '"'))
		return -1;
	while (x->s < x->end && *x->s != '"') {
		if (*x->s == '\\' && x->s + 1 < x->end)
			x->s++;
		if (n == cap)
			return -1;
		out[n++] = (uint8_t)*x->s++;
	}
	return x->s < x->end ? (x->s++, 0) : -1;
}

/* A bitfield: bits bits at bit offset bit of the struct at base, of
 * integer type id (sign from it). Little-endian bit numbering, as BTF
 * offsets are on this target. */
static int
put_bits(const struct btf *btf, uint32_t id, const char *tok, uint8_t *base, uint32_t bit,
	 uint32_t bits)
{
	uint8_t tmp[8] = { 0 };
	uint32_t size;
	int sign, be;
	uint64_t v = 0;

	if (int_type(btf, id, &size, &sign, &be) < 0 || be || bits > 64 ||
	    put_int(btf, id, tok, tmp) < 0)
		return -1;
	memcpy(&v, tmp, sizeof(v));   /* put_int's bytes, little-endian, zero above */
	if (bits < 64) {
		uint64_t lim = UINT64_C(1) << bits;

		if (sign && size < 8 && (v >> (size * 8 - 1)) & 1)
			v |= ~UINT64_C(0) << (size * 8);     /* sign-extend to 64 */
		if (sign ? (int64_t)v < -(int64_t)(lim / 2) || (int64_t)v >= (int64_t)(lim / 2) :
			   v >= lim)
			return -1;
	}
	for (uint32_t b = 0; b < bits; b++) {
		uint8_t *at = base + (bit + b) / 8, mask = (uint8_t)(1u << ((bit + b) % 8));

		*at = (uint8_t)(((v >> b) & 1) ? *at | mask : *at & ~mask);
	}
	return 0;
}

static int parse_value(const struct btf *btf, uint32_t id, struct txt *x, uint8_t *out,
		       int depth);

/* The members of struct t (optionally "name:" before each) up to close
 * ('}', or 0: the end of the text), every member in order. */
static int
parse_members(const struct btf *btf, const struct btf_type *t, struct txt *x, uint8_t *out,
	      char close, int depth)
{
	for (uint16_t k = 0; k < btf_vlen(t); k++) {
		const struct btf_member *m = btf_members(t) + k;
		const char *name = btf__name_by_offset(btf, m->name_off);
		uint32_t bits = btf_member_bitfield_size(t, k), bit = btf_member_bit_offset(t, k);
		char tok[80];
		const char *save;

		if (k > 0 && !take(x, ','))
			return -1;
		/* "name:" if given must be this member's */
		skip_ws(x);
		save = x->s;
		if (token(x, tok, sizeof(tok)) == 0 && take(x, ':')) {
			if (name == NULL || strcmp(tok, name) != 0)
				return -1;
		} else {
			x->s = save;
		}
		if (bits != 0) {
			if (token(x, tok, sizeof(tok)) < 0 ||
			    put_bits(btf, m->type, tok, out, bit, bits) < 0)
				return -1;
		} else if (bit % 8 != 0 ||
			   parse_value(btf, m->type, x, out + bit / 8, depth + 1) < 0) {
			return -1;
		}
	}
	skip_ws(x);
	return close ? (take(x, close) ? 0 : -1) : (x->s == x->end ? 0 : -1);
}

/* The elements of array t up to close (']', or 0: the end). */
static int
parse_elems(const struct btf *btf, const struct btf_type *t, struct txt *x, uint8_t *out,
	    char close, int depth)
{
	const struct btf_array *a = btf_array(t);
	int es = btf__resolve_size(btf, a->type);

	if (es <= 0)
		return -1;
	for (uint32_t k = 0; k < a->nelems; k++) {
		if (k > 0 && !take(x, ','))
			return -1;
		if (parse_value(btf, a->type, x, out + (size_t)k * (size_t)es, depth + 1) < 0)
			return -1;
	}
	skip_ws(x);
	return close ? (take(x, close) ? 0 : -1) : (x->s == x->end ? 0 : -1);
}

/* One value of type id (unresolved: __be* typedefs count) at x into out. */
static int
parse_value(const struct btf *btf, uint32_t id, struct txt *x, uint8_t *out, int depth)
{
	uint32_t rid = id;
	const struct btf_type *t = resolved(btf, &rid);
	char tok[80];

	if (t == NULL || depth > BTF_TEXT_DEPTH)
		return -1;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return token(x, tok, sizeof(tok)) == 0 ? put_int(btf, id, tok, out) : -1;
	if (btf_is_struct(t))
		return take(x, '{') ? parse_members(btf, t, x, out, '}', depth) : -1;
	if (btf_is_array(t)) {
		skip_ws(x);
		if (is_char_array(btf, t) && x->s < x->end && *x->s == '"')
			return parse_string(x, out, btf_array(t)->nelems);
		return take(x, '[') ? parse_elems(btf, t, x, out, ']', depth) : -1;
	}
	return -1;   /* unions, pointers, ...: no text form */
}

int
tpb_btf_parse(const struct btf *btf, uint32_t id, const char *s, size_t len,
	      uint8_t *out, uint32_t size)
{
	struct txt x = { s, s + len };
	const struct btf_type *t;
	uint32_t rid = id;

	if (btf == NULL || id == 0 || len == 0 || (t = resolved(btf, &rid)) == NULL ||
	    btf__resolve_size(btf, rid) != (int)size)
		return -1;
	memset(out, 0, size);
	skip_ws(&x);
	if (x.s == x.end)
		return -1;
	if (parse_value(btf, id, &x, out, 0) == 0) {
		skip_ws(&x);
		if (x.s == x.end)
			return 0;
	}
	/* a struct or array at the top may go without its braces: the
	 * members or elements in order, commas between (tried second, as
	 * "{...},..." also starts a struct whose first member is one) */
	x.s = s;
	memset(out, 0, size);
	if (btf_is_struct(t))
		return parse_members(btf, t, &x, out, 0, 0);
	if (btf_is_array(t))
		return parse_elems(btf, t, &x, out, 0, 0);
	return -1;
}

static void
print_int(const struct btf *btf, uint32_t id, const uint8_t *p, FILE *f)
{
	uint32_t size;
	int sign, be;
	uint64_t v = 0;

	if (int_type(btf, id, &size, &sign, &be) < 0) {
		fputs("?", f);
		return;
	}
	for (uint32_t b = 0; b < size; b++)
		v |= (uint64_t)p[be ? size - 1 - b : b] << (8 * b);
	if (be && size == 4) {
		fprintf(f, "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
	} else if (sign) {
		if (size < 8 && (v >> (size * 8 - 1)) & 1)
			v |= ~UINT64_C(0) << (size * 8);
		fprintf(f, "%lld", (long long)v);
	} else {
		fprintf(f, "%llu", (unsigned long long)v);
	}
}

static void
print_bits(const struct btf *btf, uint32_t id, const uint8_t *base, uint32_t bit,
	   uint32_t bits, FILE *f)
{
	uint32_t size;
	int sign, be;
	uint64_t v = 0;

	if (int_type(btf, id, &size, &sign, &be) < 0 || bits > 64) {
		fputs("?", f);
		return;
	}
	for (uint32_t b = 0; b < bits; b++)
		v |= (uint64_t)((base[(bit + b) / 8] >> ((bit + b) % 8)) & 1) << b;
	if (sign && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~UINT64_C(0) << bits;
	if (sign)
		fprintf(f, "%lld", (long long)v);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

/* A char array as "..." when it holds printable text then NULs (and no
 * quote or backslash, which would need escapes); 0 when it does not. */
static int
print_string(const uint8_t *p, uint32_t n, FILE *f)
{
	uint32_t len = 0;

	while (len < n && p[len] != 0) {
		if (p[len] < 0x20 || p[len] > 0x7e || p[len] == '"' || p[len] == '\\')
			return 0;
		len++;
	}
	for (uint32_t k = len; k < n; k++)
		if (p[k] != 0)
			return 0;
	fprintf(f, "\"%.*s\"", (int)len, (const char *)p);
	return 1;
}

static void
print_value(const struct btf *btf, uint32_t id, const uint8_t *p, FILE *f, int depth)
{
	uint32_t rid = id;
	const struct btf_type *t = resolved(btf, &rid);

	if (t == NULL || depth > BTF_TEXT_DEPTH) {
		fputs("?", f);
	} else if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) {
		print_int(btf, id, p, f);
	} else if (btf_is_struct(t)) {
		fputc('{', f);
		for (uint16_t k = 0; k < btf_vlen(t); k++) {
			const struct btf_member *m = btf_members(t) + k;
			const char *n = btf__name_by_offset(btf, m->name_off);
			uint32_t bits = btf_member_bitfield_size(t, k);
			uint32_t bit = btf_member_bit_offset(t, k);

			fprintf(f, "%s%s: ", k ? ", " : "", n && *n ? n : "?");
			if (bits != 0)
				print_bits(btf, m->type, p, bit, bits, f);
			else
				print_value(btf, m->type, p + bit / 8, f, depth + 1);
		}
		fputc('}', f);
	} else if (btf_is_array(t)) {
		int es = btf__resolve_size(btf, btf_array(t)->type);

		if (is_char_array(btf, t) && print_string(p, btf_array(t)->nelems, f))
			return;
		fputc('[', f);
		for (uint32_t k = 0; es > 0 && k < btf_array(t)->nelems; k++) {
			fputs(k ? ", " : "", f);
			print_value(btf, btf_array(t)->type, p + (size_t)k * (size_t)es, f,
				    depth + 1);
		}
		fputc(']', f);
	} else {
		fputs("?", f);
	}
}

int
tpb_btf_print(const struct btf *btf, uint32_t id, const void *data, uint32_t size, FILE *f)
{
	uint32_t rid = id;

	if (btf == NULL || id == 0 || resolved(btf, &rid) == NULL ||
	    btf__resolve_size(btf, rid) != (int)size || !tpb_btf_typed(btf, id))
		return -1;
	print_value(btf, id, data, f, 0);
	return 0;
}

static bool
typed_at(const struct btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t;
	uint32_t size;
	int sign, be;

	if (depth > BTF_TEXT_DEPTH || (t = resolved(btf, &id)) == NULL)
		return false;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return int_type(btf, id, &size, &sign, &be) == 0;
	if (btf_is_struct(t)) {
		for (uint16_t k = 0; k < btf_vlen(t); k++) {
			uint32_t mid = btf_members(t)[k].type;

			if (btf_member_bitfield_size(t, k) != 0 ?
			    int_type(btf, mid, &size, &sign, &be) < 0 || be :
			    btf_member_bit_offset(t, k) % 8 != 0 || !typed_at(btf, mid, depth + 1))
				return false;
		}
		return btf_vlen(t) > 0;
	}
	if (btf_is_array(t))
		return btf_array(t)->nelems > 0 && typed_at(btf, btf_array(t)->type, depth + 1);
	return false;
}

/* Whether text can express this type (tpb_btf_parse takes it). */
bool
tpb_btf_typed(const struct btf *btf, uint32_t id)
{
	return btf != NULL && id != 0 && typed_at(btf, id, 0);
}
