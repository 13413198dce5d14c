/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Loading an XDP object file without the kernel (contract: tp_prog.h).
 *
 * The ELF is read with libelf: the selected program's section, every
 * other program section when the object has a PROG_ARRAY map (tail-call
 * targets), and .text (BPF-to-BPF callees) are laid out one after the
 * other, then the relocations of those sections are applied the way libbpf does at
 * load time (tools/lib/bpf/libbpf.c, bpf_program__record_reloc and
 * bpf_object__reloc_code), but pointing at tagpipe's own objects:
 *   R_BPF_64_64 on ld_imm64 (opcode 0x18) against a map symbol -> the
 *     address of our map (a handle the helpers check);
 *   R_BPF_64_64 against a .data/.rodata/.bss symbol or section symbol ->
 *     the address of our copy of that section + offset (insn imm for
 *     section symbols, symbol value + imm for variables);
 *   R_BPF_64_32 on a call -> pc-relative call to section base +
 *     st_value / 8 + imm + 1 (the encoding LLVM emits for calls across
 *     sections).
 * Relocation types: llvm/include/llvm/BinaryFormat/ELFRelocs/BPF.def.
 * Map definitions: BTF ".maps" through libbpf's bpf_object__open_file,
 * which parses ELF and BTF and makes no bpf() call; legacy "maps"
 * sections (struct bpf_map_def, five u32, which libbpf >= 1.0 refuses)
 * read here directly. A PROG_ARRAY initialised in the object (libbpf's
 * ".values = { [i] = &prog }", relocations in .rel.maps) gets those
 * programs in its slots.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf_priv.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#define R_BPF_64_64 1
#define R_BPF_64_ABS64 2
#define R_BPF_64_32 10

struct elf_obj {
	Elf *elf;
	size_t shstrndx;
	size_t nsec;
	Elf_Scn *symtab;
	Elf_Data *syms;
	size_t nsyms;
	size_t strndx;
	int maps_sec;        /* ".maps" (BTF) */
	int legacy_sec;      /* "maps" */
	int text_sec;        /* ".text" */
	int data_map[256];   /* section index -> map index + 1 for global data */
	/* PROG_ARRAY maps: byte offset of the "values" member in the map's
	 * .maps struct (libbpf's static initialisation), from BTF; -1 none */
	int32_t values_off[BPF_MAX_MAPS];
};

static int
fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

static const char *
sec_name(struct elf_obj *o, int idx, GElf_Shdr *sh)
{
	Elf_Scn *s = elf_getscn(o->elf, (size_t)idx);

	if (s == NULL || gelf_getshdr(s, sh) == NULL)
		return NULL;
	return elf_strptr(o->elf, o->shstrndx, sh->sh_name);
}

static const char *
sym_name(struct elf_obj *o, const GElf_Sym *sym)
{
	const char *n = elf_strptr(o->elf, o->strndx, sym->st_name);

	return n ? n : "";
}

static bool
is_data_section(const char *n)
{
	return strncmp(n, ".data", 5) == 0 || strncmp(n, ".rodata", 7) == 0 ||
	       strncmp(n, ".bss", 4) == 0;
}

static int
open_elf(struct elf_obj *o, int fd, const char *path, char *err, size_t errlen)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(err, errlen, -EINVAL, "libelf: %s", elf_errmsg(-1));
	o->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (o->elf == NULL || gelf_getehdr(o->elf, &eh) == NULL)
		return fail(err, errlen, -EINVAL, "%s: not an ELF file", path);
	if (gelf_getclass(o->elf) != ELFCLASS64 || eh.e_machine != EM_BPF ||
	    eh.e_type != ET_REL)
		return fail(err, errlen, -EINVAL, "%s: not an eBPF object (ELF64 "
			    "relocatable, machine 247 needed)", path);
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(err, errlen, -EINVAL, "%s: big-endian eBPF objects are "
			    "not supported", path);
	if (elf_getshdrstrndx(o->elf, &o->shstrndx) != 0 ||
	    elf_getshdrnum(o->elf, &o->nsec) != 0)
		return fail(err, errlen, -EINVAL, "%s: bad section headers", path);
	if (o->nsec > 256)
		return fail(err, errlen, -EINVAL, "%s: %zu sections (256 max)", path,
			    o->nsec);
	o->maps_sec = o->legacy_sec = o->text_sec = -1;
	for (size_t i = 1; i < o->nsec; i++) {
		const char *n = sec_name(o, (int)i, &sh);

		if (n == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			o->symtab = elf_getscn(o->elf, i);
			o->syms = elf_getdata(o->symtab, NULL);
			o->nsyms = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			o->strndx = sh.sh_link;
		} else if (strcmp(n, ".maps") == 0) {
			o->maps_sec = (int)i;
		} else if (strcmp(n, "maps") == 0) {
			o->legacy_sec = (int)i;
		} else if (strcmp(n, ".text") == 0) {
			o->text_sec = (int)i;
		}
	}
	if (o->syms == NULL)
		return fail(err, errlen, -EINVAL, "%s: no symbol table", path);
	return 0;
}

/* A function symbol's instruction index in its section, or -1 when its
 * offset is not one of that section's instructions (a malformed object:
 * the ELF does not promise it). */
static int64_t
func_insn(struct elf_obj *o, const GElf_Sym *sym)
{
	const uint64_t isz = sizeof(struct bpf_insn);
	GElf_Shdr sh;

	if (sec_name(o, sym->st_shndx, &sh) == NULL || sym->st_value % isz != 0 ||
	    sym->st_value >= sh.sh_size / isz * isz)
		return -1;
	return (int64_t)(sym->st_value / isz);
}

static int
bad_func_offset(struct tp_bpf *p, struct elf_obj *o, const GElf_Sym *sym, char *err,
		size_t errlen)
{
	GElf_Shdr sh;
	const char *sn = sec_name(o, sym->st_shndx, &sh);

	return fail(err, errlen, -EINVAL, "%s: function '%s' at offset %llu is not an "
		    "instruction of its section '%s' (%llu bytes)", p->path, sym_name(o, sym),
		    (unsigned long long)sym->st_value, sn ? sn : "?",
		    sn ? (unsigned long long)sh.sh_size : 0ull);
}

/* Pick the program: sel = section name or function name; NULL = the first
 * function of the first executable section other than .text. */
static int
select_prog(struct tp_bpf *p, struct elf_obj *o, const char *sel, int *sec,
	    char *err, size_t errlen)
{
	GElf_Sym sym, best;
	GElf_Shdr sh;
	int found_sec = -1;

	memset(&best, 0, sizeof(best));
	for (size_t i = 1; i < o->nsec && found_sec < 0; i++) {
		const char *n = sec_name(o, (int)i, &sh);

		if (n == NULL || sh.sh_type != SHT_PROGBITS ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || (int)i == o->text_sec)
			continue;
		if (sel == NULL || strcmp(n, sel) == 0)
			found_sec = (int)i;
	}
	/* First (lowest offset) function of that section, or the named one. */
	for (size_t j = 0; j < o->nsyms; j++) {
		if (gelf_getsym(o->syms, (int)j, &sym) == NULL ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		if (found_sec >= 0) {
			if (sym.st_shndx == found_sec &&
			    (best.st_name == 0 || sym.st_value < best.st_value))
				best = sym;
		} else if (sel != NULL && strcmp(sym_name(o, &sym), sel) == 0 &&
			   sym.st_shndx != o->text_sec) {
			best = sym;
			found_sec = sym.st_shndx;
		}
	}
	if (found_sec < 0 || best.st_name == 0) {
		char list[160] = "";
		size_t used = 0;

		for (size_t i = 1; i < o->nsec; i++) {
			const char *n = sec_name(o, (int)i, &sh);

			if (n && (sh.sh_flags & SHF_EXECINSTR) && (int)i != o->text_sec &&
			    sh.sh_size > 0 && used < sizeof(list))
				used += (size_t)snprintf(list + used, sizeof(list) - used,
							 "%s%s", used ? ", " : "", n);
		}
		return fail(err, errlen, -ENOENT, "%s: no program %s%s%s (sections: %s)",
			    p->path, sel ? "'" : "", sel ? sel : "section",
			    sel ? "'" : "", list[0] ? list : "none");
	}
	if (func_insn(o, &best) < 0)
		return bad_func_offset(p, o, &best, err, errlen);
	snprintf(p->section, sizeof(p->section), "%s", sec_name(o, found_sec, &sh));
	snprintf(p->func, sizeof(p->func), "%s", sym_name(o, &best));
	p->entry = (uint32_t)func_insn(o, &best);
	p->frags = strncmp(p->section, "xdp.frags", 9) == 0;
	if (strncmp(p->section, "xdp/devmap", 10) == 0 ||
	    strncmp(p->section, "xdp/cpumap", 10) == 0 ||
	    strncmp(p->section, "xdp.frags/", 10) == 0)
		return fail(err, errlen, -ENOTSUP, "%s: section '%s': devmap/cpumap "
			    "egress programs are not supported", p->path, p->section);
	*sec = found_sec;
	return 0;
}

static int
add_map(struct tp_bpf *p, const char *name, uint32_t type, uint32_t ks,
	uint32_t vs, uint32_t max, char *err, size_t errlen)
{
	struct tp_bpf_map *m;

	if (p->nb_maps == BPF_MAX_MAPS)
		return fail(err, errlen, -ENOSPC, "%s: more than %d maps", p->path,
			    BPF_MAX_MAPS);
	m = &p->maps[p->nb_maps];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->type = type;
	m->key_size = ks;
	m->value_size = vs;
	m->max_entries = max;
	if (tpb_map_init(m, p->ncpu, err, errlen) < 0) {
		tpb_map_fini(m);
		return -EINVAL;
	}
	p->nb_maps++;
	return 0;
}

static char libbpf_msg[256];

static int
libbpf_capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_DEBUG)
		vsnprintf(libbpf_msg, sizeof(libbpf_msg), fmt, ap);
	return 0;
}

/* Offset of member "values" in the BTF struct of map variable name, or -1
 * (libbpf: a PROG_ARRAY's ".values = { [i] = &prog }" initialiser). */
static int32_t
btf_values_off(const struct btf *btf, const char *name)
{
	const struct btf_type *t;
	int32_t id;

	if (btf == NULL || (id = btf__find_by_name_kind(btf, name, BTF_KIND_VAR)) < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, (uint32_t)id)->type);
	if (t == NULL || !btf_is_struct(t))
		return -1;
	for (uint16_t k = 0; k < btf_vlen(t); k++) {
		const char *mn = btf__name_by_offset(btf, btf_members(t)[k].name_off);

		if (mn != NULL && strcmp(mn, "values") == 0)
			return (int32_t)(btf_member_bit_offset(t, k) / 8);
	}
	return -1;
}

int
tpb_libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/*
 * libbpf, which parses the object's BTF, can crash on a malformed one:
 * Debian 12's libbpf 1.1 dereferences a bad pointer on an object whose
 * .BTF and .BTF.ext bytes were changed (found by tests/fuzz/fuzz_bpf.c;
 * its seed corpus keeps the input), and a crash there would take the whole
 * application down for a bad file. So the object is first opened in a
 * child process that only parses it and exits: when that child dies, the
 * file is refused with a clear error and libbpf never sees it here.
 * 0: go on (libbpf gave its own verdict in the child, or no child could be
 * made).
 */
static int
libbpf_probe(const char *path, char *err, size_t errlen)
{
	int st = 0;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		struct bpf_object *obj;

		/* die of a crash: the parent's handlers (a test framework's,
		 * a fuzzer's) must not take over the child */
		for (unsigned int i = 0; i < RTE_DIM(fatal); i++)
			signal(fatal[i], SIG_DFL);
		libbpf_set_print(tpb_libbpf_quiet);
		obj = bpf_object__open_file(path, NULL);
		_exit(obj != NULL ? 0 : 2);     /* no close, no atexit: just the verdict */
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 2))
		return 0;
	return fail(err, errlen, -EINVAL, "%s: libbpf crashed reading its BTF (%s %d in a "
		    "child process): not a well-formed BPF object", path,
		    WIFSIGNALED(st) ? "signal" : "exit status",
		    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
}

/* BTF-defined maps (.maps), parsed by libbpf without a kernel. */
static int
load_btf_maps(struct tp_bpf *p, struct elf_obj *o, char *err, size_t errlen)
{
	libbpf_print_fn_t old;
	struct bpf_object *obj;
	struct bpf_map *bm;
	int rc = libbpf_probe(p->path, err, errlen);

	if (rc < 0)
		return rc;
	old = libbpf_set_print(libbpf_capture);
	libbpf_msg[0] = '\0';
	obj = bpf_object__open_file(p->path, NULL);
	libbpf_set_print(old);
	if (obj == NULL) {
		size_t l = strlen(libbpf_msg);

		if (l > 0 && libbpf_msg[l - 1] == '\n')
			libbpf_msg[l - 1] = '\0';
		return fail(err, errlen, -EINVAL, "%s: libbpf cannot open it: %s",
			    p->path, libbpf_msg[0] ? libbpf_msg : strerror(errno));
	}
	bpf_object__for_each_map(bm, obj) {
		if (bpf_map__is_internal(bm))
			continue; /* .data/.rodata/.bss: read from the ELF */
		if (bpf_map__map_flags(bm) & BPF_F_NO_PREALLOC &&
		    bpf_map__type(bm) != BPF_MAP_TYPE_HASH &&
		    bpf_map__type(bm) != BPF_MAP_TYPE_PERCPU_HASH &&
		    bpf_map__type(bm) != BPF_MAP_TYPE_LPM_TRIE) {
			rc = fail(err, errlen, -ENOTSUP, "map '%s': flags 0x%x not "
				  "supported", bpf_map__name(bm), bpf_map__map_flags(bm));
			break;
		}
		if (p->nb_maps < BPF_MAX_MAPS && bpf_map__inner_map(bm) != NULL) {
			/* map-in-map: libbpf parsed __array(values, ...) */
			struct bpf_map *in = bpf_map__inner_map(bm);

			p->maps[p->nb_maps].inner.type = bpf_map__type(in);
			p->maps[p->nb_maps].inner.key_size = bpf_map__key_size(in);
			p->maps[p->nb_maps].inner.value_size = bpf_map__value_size(in);
			p->maps[p->nb_maps].inner.max_entries = bpf_map__max_entries(in);
		}
		rc = add_map(p, bpf_map__name(bm), bpf_map__type(bm),
			     bpf_map__key_size(bm), bpf_map__value_size(bm),
			     bpf_map__max_entries(bm), err, errlen);
		if (rc < 0)
			break;
		/* the types, for keys and values as text (bpf_btf.c) */
		p->maps[p->nb_maps - 1].btf_key = bpf_map__btf_key_type_id(bm);
		p->maps[p->nb_maps - 1].btf_value = bpf_map__btf_value_type_id(bm);
		o->values_off[p->nb_maps - 1] =
			bpf_map__type(bm) == BPF_MAP_TYPE_PROG_ARRAY ||
			tpb_map_is_of_maps(bpf_map__type(bm)) ?
			btf_values_off(bpf_object__btf(obj), bpf_map__name(bm)) : -1;
	}
	if (rc == 0 && bpf_object__btf(obj) != NULL) {
		uint32_t sz;
		const void *raw = btf__raw_data(bpf_object__btf(obj), &sz);

		/* kept past the object: maps read and print by it */
		p->btf = raw != NULL ? btf__new(raw, sz) : NULL;
		if (libbpf_get_error(p->btf) != 0)
			p->btf = NULL;
	}
	bpf_object__close(obj);
	return rc;
}

/* Legacy "maps": struct bpf_map_def {type, key_size, value_size,
 * max_entries, map_flags} (u32 each) at each symbol of the section. */
static int
load_legacy_maps(struct tp_bpf *p, struct elf_obj *o, char *err, size_t errlen)
{
	Elf_Data *d = elf_getdata(elf_getscn(o->elf, (size_t)o->legacy_sec), NULL);
	GElf_Sym sym;

	for (size_t j = 0; j < o->nsyms; j++) {
		uint32_t def[5];
		int rc;

		if (gelf_getsym(o->syms, (int)j, &sym) == NULL ||
		    sym.st_shndx != o->legacy_sec ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			continue;
		if (d == NULL || sym.st_value + 16 > d->d_size)
			return fail(err, errlen, -EINVAL, "%s: legacy map '%s' outside "
				    "the maps section", p->path, sym_name(o, &sym));
		memset(def, 0, sizeof(def));
		memcpy(def, (const uint8_t *)d->d_buf + sym.st_value,
		       sym.st_value + 20 <= d->d_size ? 20 : 16);
		rc = add_map(p, sym_name(o, &sym), def[0], def[1], def[2], def[3],
			     err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Global data sections become one-entry ARRAY maps holding their bytes. */
static int
data_map_of(struct tp_bpf *p, struct elf_obj *o, int sec, char *err,
	    size_t errlen)
{
	GElf_Shdr sh;
	const char *n;
	Elf_Data *d;
	int rc;

	if (o->data_map[sec])
		return o->data_map[sec] - 1;
	n = sec_name(o, sec, &sh);
	rc = add_map(p, n, BPF_MAP_TYPE_ARRAY, 4,
		     sh.sh_size ? (uint32_t)sh.sh_size : 1, 1, err, errlen);
	if (rc < 0)
		return rc;
	d = elf_getdata(elf_getscn(o->elf, (size_t)sec), NULL);
	if (sh.sh_type != SHT_NOBITS && d != NULL && d->d_buf != NULL)
		memcpy(p->maps[p->nb_maps - 1].values, d->d_buf,
		       d->d_size < sh.sh_size ? d->d_size : sh.sh_size);
	o->data_map[sec] = (int)p->nb_maps;
	return (int)p->nb_maps - 1;
}

static int
find_map_by_name(const struct tp_bpf *p, const char *name)
{
	for (uint32_t i = 0; i < p->nb_maps; i++)
		if (strcmp(p->maps[i].name, name) == 0)
			return (int)i;
	return -1;
}

static void
set_imm64(struct bpf_insn *i, uint64_t v)
{
	i[0].imm = (int32_t)(uint32_t)v;
	i[1].imm = (int32_t)(uint32_t)(v >> 32);
	i[0].src_reg = 0;
}

/* The next REL section from index *i on whose target is section sec: its
 * data and entry count, *i its index; NULL when there is none. */
static Elf_Data *
next_rel(struct elf_obj *o, int sec, size_t *i, size_t *nrel)
{
	GElf_Shdr sh;

	for (; *i < o->nsec; (*i)++) {
		Elf_Scn *s = elf_getscn(o->elf, *i);

		if (gelf_getshdr(s, &sh) == NULL || sh.sh_type != SHT_REL ||
		    (int)sh.sh_info != sec)
			continue;
		*nrel = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		return elf_getdata(s, NULL);
	}
	return NULL;
}

/* Apply the relocations of section sec, whose code starts at pc base. */
static int
relocate(struct tp_bpf *p, struct elf_obj *o, int sec, uint32_t base,
	 uint32_t count, const uint32_t *sec_base, char *err, size_t errlen)
{
	Elf_Data *d;
	size_t nrel;

	for (size_t i = 1; (d = next_rel(o, sec, &i, &nrel)) != NULL; i++) {
		for (size_t r = 0; r < nrel; r++) {
			GElf_Rel rel;
			GElf_Sym sym;
			GElf_Shdr tsh;
			uint32_t pc;
			struct bpf_insn *in;
			const char *sn, *tn;
			int mi;

			if (gelf_getrel(d, (int)r, &rel) == NULL ||
			    gelf_getsym(o->syms, (int)GELF_R_SYM(rel.r_info), &sym) == NULL)
				return fail(err, errlen, -EINVAL, "%s: bad relocation",
					    p->path);
			pc = (uint32_t)(rel.r_offset / sizeof(struct bpf_insn));
			if (rel.r_offset % sizeof(struct bpf_insn) || pc >= count)
				return fail(err, errlen, -EINVAL, "%s: relocation at "
					    "offset %lu outside the code", p->path,
					    (unsigned long)rel.r_offset);
			in = &p->insns[base + pc];
			sn = sym_name(o, &sym);
			if (sym.st_shndx == SHN_UNDEF)
				return fail(err, errlen, -ENOTSUP, "%s: pc %u: extern "
					    "symbol '%s' (kfuncs, __ksym, externs) is not "
					    "supported", p->path, base + pc, sn);
			tn = sec_name(o, sym.st_shndx, &tsh);
			if (GELF_R_TYPE(rel.r_info) == R_BPF_64_32 &&
			    in->code == (BPF_JMP | BPF_CALL) &&
			    in->src_reg == BPF_PSEUDO_CALL) {
				int64_t t;

				if (sym.st_shndx >= 256 || sec_base[sym.st_shndx] == UINT32_MAX)
					return fail(err, errlen, -ENOTSUP, "%s: pc %u: call "
						    "into section '%s' (only its own section "
						    "and .text)", p->path, base + pc,
						    tn ? tn : "?");
				t = (int64_t)sec_base[sym.st_shndx] +
				    (int64_t)(sym.st_value / 8) + in->imm + 1;
				in->imm = (int32_t)(t - (int64_t)(base + pc) - 1);
				continue;
			}
			if (GELF_R_TYPE(rel.r_info) != R_BPF_64_64 ||
			    in->code != (BPF_LD | BPF_IMM | BPF_DW) || pc + 1 >= count)
				return fail(err, errlen, -ENOTSUP, "%s: pc %u: relocation "
					    "type %lu against '%s' is not supported",
					    p->path, base + pc,
					    (unsigned long)GELF_R_TYPE(rel.r_info), sn);
			if (sym.st_shndx < 256 && sec_base[sym.st_shndx] != UINT32_MAX &&
			    (tsh.sh_flags & SHF_EXECINSTR)) {
				/* a function's address (bpf_loop's callback): the
				 * kernel's form, src_reg BPF_PSEUDO_FUNC with imm the
				 * offset to it (libbpf RELO_SUBPROG_ADDR) */
				int64_t off = (int64_t)sym.st_value + in->imm, t;

				if (off % 8 != 0)
					return fail(err, errlen, -EINVAL, "%s: pc %u: function "
						    "address at byte %ld", p->path, base + pc,
						    (long)off);
				t = (int64_t)sec_base[sym.st_shndx] + off / 8;
				in->src_reg = BPF_PSEUDO_FUNC;
				in->imm = (int32_t)(t - (int64_t)(base + pc) - 1);
				in[1].imm = 0;
				continue;
			}
			if ((int)sym.st_shndx == o->maps_sec ||
			    (int)sym.st_shndx == o->legacy_sec) {
				mi = find_map_by_name(p, sn);
				if (mi < 0)
					return fail(err, errlen, -ENOENT, "%s: pc %u: "
						    "unknown map '%s'", p->path, base + pc, sn);
				set_imm64(in, (uintptr_t)&p->maps[mi]);
			} else if (tn != NULL && is_data_section(tn)) {
				uint64_t off = (uint32_t)in->imm;

				mi = data_map_of(p, o, sym.st_shndx, err, errlen);
				if (mi < 0)
					return mi;
				if (GELF_ST_TYPE(sym.st_info) != STT_SECTION)
					off += sym.st_value;
				if (off >= p->maps[mi].value_size)
					return fail(err, errlen, -EINVAL, "%s: pc %u: offset "
						    "%lu outside %s", p->path, base + pc,
						    (unsigned long)off, tn);
				set_imm64(in, (uintptr_t)p->maps[mi].values + off);
			} else {
				return fail(err, errlen, -ENOTSUP, "%s: pc %u: reference "
					    "to '%s' in section '%s' is not supported",
					    p->path, base + pc, sn, tn ? tn : "?");
			}
		}
	}
	return 0;
}

static bool
is_prog_section(struct elf_obj *o, int idx, const char **name)
{
	GElf_Shdr sh;
	const char *n = sec_name(o, idx, &sh);

	*name = n;
	return n != NULL && sh.sh_type == SHT_PROGBITS && idx != o->text_sec &&
	       (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) ==
	       (SHF_ALLOC | SHF_EXECINSTR) && sh.sh_size > 0;
}

static bool
has_prog_array(const struct tp_bpf *p)
{
	for (uint32_t i = 0; i < p->nb_maps; i++)
		if (p->maps[i].type == BPF_MAP_TYPE_PROG_ARRAY)
			return true;
	return false;
}

/* p->progs: the selected program, then (tail-call targets) every function
 * symbol of the other loaded program sections. */
static int
list_programs(struct tp_bpf *p, struct elf_obj *o, int sel_sec,
	      const uint32_t *sec_base, char *err, size_t errlen)
{
	struct bpf_prog_ent *e = &p->progs[0];
	GElf_Sym sym;

	snprintf(e->name, sizeof(e->name), "%s", p->func);
	snprintf(e->section, sizeof(e->section), "%s", p->section);
	e->entry = p->entry;
	p->nb_progs = 1;
	for (size_t j = 0; j < o->nsyms; j++) {
		const char *sn;

		if (gelf_getsym(o->syms, (int)j, &sym) == NULL ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    GELF_ST_BIND(sym.st_info) != STB_GLOBAL ||
		    sym.st_shndx >= 256 || (int)sym.st_shndx == o->text_sec ||
		    sec_base[sym.st_shndx] == UINT32_MAX ||
		    ((int)sym.st_shndx == sel_sec && sym.st_value / 8 == p->entry))
			continue;
		if (func_insn(o, &sym) < 0)
			return bad_func_offset(p, o, &sym, err, errlen);
		if (p->nb_progs == BPF_MAX_PROGS)
			return fail(err, errlen, -ENOSPC, "%s: more than %d programs",
				    p->path, BPF_MAX_PROGS);
		e = &p->progs[p->nb_progs++];
		snprintf(e->name, sizeof(e->name), "%s", sym_name(o, &sym));
		is_prog_section(o, sym.st_shndx, &sn);
		snprintf(e->section, sizeof(e->section), "%s", sn ? sn : "?");
		e->entry = sec_base[sym.st_shndx] + (uint32_t)func_insn(o, &sym);
	}
	return 0;
}

/* The selected section first (pc 0), with PROG_ARRAY maps every other
 * program section, then .text; each relocated at its base. */
static int
load_code(struct tp_bpf *p, struct elf_obj *o, int sec, uint32_t *sec_base,
	  char *err, size_t errlen)
{
	int order[256];
	uint32_t counts[256];
	size_t nsecs = 0, total = 0;
	bool all = has_prog_array(p);
	int rc = 0;

	order[nsecs++] = sec;
	for (size_t i = 1; all && i < o->nsec; i++) {
		const char *n;

		if ((int)i != sec && is_prog_section(o, (int)i, &n))
			order[nsecs++] = (int)i;
	}
	if (o->text_sec >= 0)
		order[nsecs++] = o->text_sec;
	for (int i = 0; i < 256; i++)
		sec_base[i] = UINT32_MAX;
	for (size_t k = 0; k < nsecs; k++) {
		Elf_Data *d = elf_getdata(elf_getscn(o->elf, (size_t)order[k]), NULL);

		counts[k] = d ? (uint32_t)(d->d_size / sizeof(struct bpf_insn)) : 0;
		sec_base[order[k]] = (uint32_t)total;
		total += counts[k];
	}
	if (counts[0] == 0 || total > BPF_MAX_INSNS)
		return fail(err, errlen, -EINVAL, "%s: section '%s' has %zu "
			    "instructions (1..%d)", p->path, p->section, total,
			    BPF_MAX_INSNS);
	p->insns = calloc(total, sizeof(struct bpf_insn));
	if (p->insns == NULL)
		return fail(err, errlen, -ENOMEM, "out of memory");
	p->nb_insns = (uint32_t)total;
	for (size_t k = 0; k < nsecs; k++) {
		Elf_Data *d = elf_getdata(elf_getscn(o->elf, (size_t)order[k]), NULL);

		if (counts[k])
			memcpy(p->insns + sec_base[order[k]], d->d_buf,
			       counts[k] * sizeof(struct bpf_insn));
	}
	for (size_t k = 0; k < nsecs && rc == 0; k++)
		if (counts[k])
			rc = relocate(p, o, order[k], sec_base[order[k]], counts[k],
				      sec_base, err, errlen);
	if (rc == 0)
		rc = list_programs(p, o, sec, sec_base, err, errlen);
	return rc;
}

/* Map symbol of .maps containing byte offset off, as a map index, or -1. */
static int
map_at_offset(struct tp_bpf *p, struct elf_obj *o, uint64_t off, uint64_t *base)
{
	GElf_Sym sym;

	for (size_t j = 0; j < o->nsyms; j++) {
		if (gelf_getsym(o->syms, (int)j, &sym) == NULL ||
		    (int)sym.st_shndx != o->maps_sec ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
		    off < sym.st_value || off >= sym.st_value + sym.st_size)
			continue;
		*base = sym.st_value;
		return find_map_by_name(p, sym_name(o, &sym));
	}
	return -1;
}

/* libbpf's static initialisation of PROG_ARRAY and map-in-map maps:
 * .rel.maps holds one R_BPF_64_ABS64 per initialised slot, against the
 * program's (or inner map's) symbol, at the slot's place in the map's
 * "values" member. Slot value: program number or map index, + 1 (0 =
 * empty). Only array-like maps have slots to initialise (libbpf refuses
 * .values on hash maps). */
static int
init_inner_slot(struct tp_bpf *p, struct elf_obj *o, struct tp_bpf_map *m,
		const GElf_Rel *rel, const GElf_Sym *sym, uint64_t base, char *err,
		size_t errlen)
{
	uint64_t slot = (rel->r_offset - base - (uint64_t)o->values_off[m - p->maps]) / 8;
	int in = (int)sym->st_shndx == o->maps_sec ? find_map_by_name(p, sym_name(o, sym)) : -1;
	uint32_t v;
	int rc;

	if (GELF_R_TYPE(rel->r_info) != R_BPF_64_ABS64 || in < 0)
		return fail(err, errlen, -EINVAL, "map '%s': initial value '%s' is not "
			    "a map", m->name, sym_name(o, sym));
	if (slot >= m->max_entries)
		return fail(err, errlen, -EINVAL, "map '%s': initial slot %lu -> '%s' "
			    "(max_entries %u)", m->name, (unsigned long)slot,
			    sym_name(o, sym), m->max_entries);
	rc = tpb_map_inner_ok(m, &p->maps[in], err, errlen);
	if (rc < 0)
		return rc;
	v = (uint32_t)in + 1;
	memcpy(m->values + slot * m->stride, &v, 4);
	return 0;
}

static int
init_prog_arrays(struct tp_bpf *p, struct elf_obj *o, char *err, size_t errlen)
{
	Elf_Data *d;
	size_t nrel;
	int rc;

	for (size_t i = 1; (d = next_rel(o, o->maps_sec, &i, &nrel)) != NULL; i++) {
		for (size_t r = 0; r < nrel; r++) {
			GElf_Rel rel;
			GElf_Sym sym;
			uint64_t base = 0, slot;
			struct tp_bpf_map *m;
			uint32_t prog = UINT32_MAX, v;
			int mi;

			if (gelf_getrel(d, (int)r, &rel) == NULL ||
			    gelf_getsym(o->syms, (int)GELF_R_SYM(rel.r_info), &sym) == NULL)
				return fail(err, errlen, -EINVAL, "%s: bad relocation "
					    "in .rel.maps", p->path);
			mi = map_at_offset(p, o, rel.r_offset, &base);
			if (mi < 0)
				return fail(err, errlen, -EINVAL, "%s: .rel.maps "
					    "offset %lu is in no map", p->path,
					    (unsigned long)rel.r_offset);
			m = &p->maps[mi];
			if ((m->type != BPF_MAP_TYPE_PROG_ARRAY &&
			     m->type != BPF_MAP_TYPE_ARRAY_OF_MAPS) || o->values_off[mi] < 0)
				return fail(err, errlen, -ENOTSUP, "map '%s': initial "
					    "values are supported for prog_array and "
					    "array_of_maps only", m->name);
			if (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS) {
				rc = init_inner_slot(p, o, m, &rel, &sym, base, err, errlen);
				if (rc < 0)
					return rc;
				continue;
			}
			if (GELF_R_TYPE(rel.r_info) != R_BPF_64_ABS64 ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				return fail(err, errlen, -EINVAL, "map '%s': initial "
					    "value is not a program", m->name);
			slot = (rel.r_offset - base - (uint64_t)o->values_off[mi]) / 8;
			for (uint32_t k = 0; k < p->nb_progs; k++)
				if (strcmp(p->progs[k].name, sym_name(o, &sym)) == 0)
					prog = k;
			if (slot >= m->max_entries || prog == UINT32_MAX)
				return fail(err, errlen, -EINVAL, "map '%s': initial "
					    "slot %lu -> '%s' (max_entries %u)", m->name,
					    (unsigned long)slot, sym_name(o, &sym),
					    m->max_entries);
			v = prog + 1;
			memcpy(m->values + slot * m->stride, &v, 4);
		}
	}
	return 0;
}

int
tpb_load_object(struct tp_bpf *p, const char *path, const char *sel,
		char *err, size_t errlen)
{
	struct elf_obj o;
	uint32_t sec_base[256];
	int fd, sec = -1, rc;

	memset(&o, 0, sizeof(o));
	if (path == NULL)
		return fail(err, errlen, -EINVAL, "no object file given");
	if (strlen(path) >= sizeof(p->path))
		return fail(err, errlen, -ENAMETOOLONG, "path too long: '%s'", path);
	snprintf(p->path, sizeof(p->path), "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	rc = open_elf(&o, fd, path, err, errlen);
	if (rc == 0)
		rc = select_prog(p, &o, sel, &sec, err, errlen);
	if (rc == 0 && o.maps_sec >= 0)
		rc = load_btf_maps(p, &o, err, errlen);
	if (rc == 0 && o.legacy_sec >= 0)
		rc = load_legacy_maps(p, &o, err, errlen);
	if (rc == 0)
		rc = load_code(p, &o, sec, sec_base, err, errlen);
	if (rc == 0 && o.maps_sec >= 0)
		rc = init_prog_arrays(p, &o, err, errlen);
	elf_end(o.elf);
	close(fd);
	return rc;
}
