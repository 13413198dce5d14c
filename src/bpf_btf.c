/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Map keys and values as the object's BTF types (contract: tp_prog.h,
 * tp_prog_bpf_map_update_text and tp_prog_bpf_map_dump_btf): integers and
 * enums, and structs and arrays whose members or elements are integers,
 * read from text and printed as text. Types come from the object's .BTF
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

int
bpf_btf_parse(const struct btf *btf, uint32_t id, const char *s, size_t len,
	      uint8_t *out, uint32_t size)
{
	const struct btf_type *t;
	char buf[512], *item, *save = NULL;
	uint32_t n = 0, named = id; /* named: before typedefs, for __be* */

	if (btf == NULL || id == 0 || len == 0 || len >= sizeof(buf) ||
	    (t = resolved(btf, &id)) == NULL || btf__resolve_size(btf, id) != (int)size)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(out, 0, size);
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return put_int(btf, named, buf, out);
	/* struct or array of integers: the values in order, commas between */
	for (item = strtok_r(buf, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save), n++) {
		uint32_t mid, off;

		if (btf_is_struct(t) && n < btf_vlen(t)) {
			const struct btf_member *m = btf_members(t) + n;

			if (btf_member_bitfield_size(t, n) != 0)
				return -1;
			mid = m->type;
			off = btf_member_bit_offset(t, n) / 8;
		} else if (btf_is_array(t) && n < btf_array(t)->nelems) {
			int es = btf__resolve_size(btf, btf_array(t)->type);

			if (es <= 0)
				return -1;
			mid = btf_array(t)->type;
			off = n * (uint32_t)es;
		} else {
			return -1;
		}
		if (put_int(btf, mid, item, out + off) < 0)
			return -1;
	}
	return n == (btf_is_struct(t) ? btf_vlen(t) : btf_is_array(t) ? btf_array(t)->nelems : 0) ?
	       0 : -1;
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

int
bpf_btf_print(const struct btf *btf, uint32_t id, const void *data, uint32_t size, FILE *f)
{
	const struct btf_type *t;
	const uint8_t *p = data;
	uint32_t named = id; /* before typedefs, for __be* */

	if (btf == NULL || id == 0 || (t = resolved(btf, &id)) == NULL ||
	    btf__resolve_size(btf, id) != (int)size)
		return -1;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) {
		print_int(btf, named, p, f);
		return 0;
	}
	if (btf_is_struct(t)) {
		fputc('{', f);
		for (uint16_t k = 0; k < btf_vlen(t); k++) {
			const char *n = btf__name_by_offset(btf, btf_members(t)[k].name_off);

			fprintf(f, "%s%s: ", k ? ", " : "", n && *n ? n : "?");
			print_int(btf, btf_members(t)[k].type, p + btf_member_bit_offset(t, k) / 8,
				  f);
		}
		fputc('}', f);
		return 0;
	}
	if (btf_is_array(t)) {
		int es = btf__resolve_size(btf, btf_array(t)->type);

		fputc('[', f);
		for (uint32_t k = 0; es > 0 && k < btf_array(t)->nelems; k++) {
			fputs(k ? ", " : "", f);
			print_int(btf, btf_array(t)->type, p + (size_t)k * (size_t)es, f);
		}
		fputc(']', f);
		return 0;
	}
	return -1;
}

/* Whether text can express this type (bpf_btf_parse takes it). */
bool
bpf_btf_typed(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	uint32_t size;
	int sign, be;

	if (btf == NULL || id == 0 || (t = resolved(btf, &id)) == NULL)
		return false;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return int_type(btf, id, &size, &sign, &be) == 0;
	if (btf_is_struct(t)) {
		for (uint16_t k = 0; k < btf_vlen(t); k++)
			if (btf_member_bitfield_size(t, k) != 0 ||
			    int_type(btf, btf_members(t)[k].type, &size, &sign, &be) < 0)
				return false;
		return btf_vlen(t) > 0;
	}
	if (btf_is_array(t))
		return int_type(btf, btf_array(t)->type, &size, &sign, &be) == 0;
	return false;
}
