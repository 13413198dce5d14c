/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bpf_trace_printk (helper 6) to tagpipe's log: log type "tagpipe.bpf" at
 * INFO (shown with --log-level=tagpipe.bpf:info; the kernel writes to its
 * trace buffer, which is read only on demand, so neither floods by
 * default).
 *
 * The format rules are the kernel's (bpf_bprintf_prepare in
 * kernel/bpf/helpers.c): the format ends with a NUL within fmt_size, holds
 * only printable ASCII or spaces, at most 3 conversions (the helper's 3
 * arguments), each "%[0 +-]*[width]" then one of: %% (no argument), %c,
 * %s, %p (as a hexadecimal address), %pi4/%pI4 (an IPv4 address read from
 * the pointer), or [l|ll](d|i|u|x|X). Anything else, a %s or %pI4 whose
 * memory the program may not read, or no NUL: -EINVAL and nothing
 * printed. Returns the length of the formatted text, as the kernel does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "bpf_priv.h"

RTE_LOG_REGISTER(tp_bpf_logtype, tagpipe.bpf, NOTICE);

#define PRINTK_BUF 512       /* the kernel's MAX_BPRINTF_BUF */
#define PRINTK_ARGS 3        /* MAX_TRACE_PRINTK_VARARGS */
#define PRINTK_STR_MAX 64    /* bytes a %s reads at most */

/* Append to out at *len (bounded; the length still counts what did not fit,
 * as snprintf does). */
static void
put(char *out, size_t *len, const char *fmt, ...) __rte_format_printf(3, 4);

static void
put(char *out, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + RTE_MIN(*len, (size_t)PRINTK_BUF - 1),
		      *len < PRINTK_BUF - 1 ? PRINTK_BUF - *len : 1, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/* The NUL-terminated string at addr, at most PRINTK_STR_MAX bytes, into s;
 * -EINVAL when the program may not read it. */
static int
read_str(const struct bpf_run *rs, uint64_t addr, char *s)
{
	size_t i;

	for (i = 0; i < PRINTK_STR_MAX; i++) {
		if (!tpb_run_mem_ok(rs, addr + i, 1))
			return -EINVAL;
		s[i] = *(const char *)(uintptr_t)(addr + i);
		if (s[i] == '\0')
			return 0;
	}
	s[PRINTK_STR_MAX] = '\0';
	return 0;
}

uint64_t
tpb_h_trace_printk(struct bpf_run *rs, uint64_t fmt_addr, uint64_t fmt_size,
		   const uint64_t args[PRINTK_ARGS])
{
	char out[PRINTK_BUF], spec[24], str[PRINTK_STR_MAX + 1];
	const char *fmt = (const char *)(uintptr_t)fmt_addr;
	unsigned int nargs = 0;
	size_t len = 0;

	if (fmt_size == 0 || fmt_size > PRINTK_BUF ||
	    !tpb_run_mem_ok(rs, fmt_addr, (uint32_t)fmt_size) ||
	    memchr(fmt, '\0', fmt_size) == NULL)
		return (uint64_t)-EINVAL;
	out[0] = '\0';
	for (size_t i = 0; fmt[i] != '\0'; i++) {
		size_t s0 = i, w;
		int lmod = 0;

		if (fmt[i] < 0x20 && fmt[i] != '\t' && fmt[i] != '\n' && fmt[i] != '\r' &&
		    fmt[i] != '\v' && fmt[i] != '\f')
			return (uint64_t)-EINVAL;
		if ((unsigned char)fmt[i] > 0x7e)
			return (uint64_t)-EINVAL;
		if (fmt[i] != '%') {
			put(out, &len, "%c", fmt[i]);
			continue;
		}
		if (fmt[i + 1] == '%') {
			put(out, &len, "%%");
			i++;
			continue;
		}
		if (nargs == PRINTK_ARGS)
			return (uint64_t)-EINVAL;
		i++;
		while (fmt[i] == '0' || fmt[i] == '+' || fmt[i] == '-' || fmt[i] == ' ')
			i++;
		while (fmt[i] >= '0' && fmt[i] <= '9')
			i++;
		/* the flags and width as given, for our own snprintf */
		w = i - s0;
		if (w + 4 >= sizeof(spec))
			return (uint64_t)-EINVAL;
		memcpy(spec, fmt + s0, w);
		if (fmt[i] == 'c') {
			memcpy(spec + w, "c", 2);
			put(out, &len, spec, (int)(uint8_t)args[nargs++]);
			continue;
		}
		if (fmt[i] == 's') {
			if (read_str(rs, args[nargs++], str) < 0)
				return (uint64_t)-EINVAL;
			memcpy(spec + w, "s", 2);
			put(out, &len, spec, str);
			continue;
		}
		if (fmt[i] == 'p') {
			if ((fmt[i + 1] == 'i' || fmt[i + 1] == 'I') && fmt[i + 2] == '4') {
				const uint8_t *a = (const uint8_t *)(uintptr_t)args[nargs];

				if (!tpb_run_mem_ok(rs, args[nargs++], 4))
					return (uint64_t)-EINVAL;
				put(out, &len, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
				i += 2;
				continue;
			}
			/* %p, %px, %pK: the value as an address */
			if (fmt[i + 1] == 'x' || fmt[i + 1] == 'K')
				i++;
			put(out, &len, "0x%" PRIx64, args[nargs++]);
			continue;
		}
		while (fmt[i] == 'l' && lmod < 2) {
			lmod++;
			i++;
		}
		switch (fmt[i]) {
		case 'd':
		case 'i':
			memcpy(spec + w, PRId64, sizeof(PRId64));
			put(out, &len, spec, lmod ? (int64_t)args[nargs] :
			    (int64_t)(int32_t)args[nargs]);
			break;
		case 'u':
		case 'x':
		case 'X':
			spec[w] = '\0';
			strcat(spec, fmt[i] == 'u' ? PRIu64 : fmt[i] == 'x' ? PRIx64 : PRIX64);
			put(out, &len, spec, lmod ? args[nargs] : (uint64_t)(uint32_t)args[nargs]);
			break;
		default:
			return (uint64_t)-EINVAL;
		}
		nargs++;
	}
	rte_log(RTE_LOG_INFO, tp_bpf_logtype, "bpf_trace_printk: %s%s", out,
		len > 0 && out[RTE_MIN(len, (size_t)PRINTK_BUF - 1) - 1] == '\n' ? "" : "\n");
	return RTE_MIN(len, (size_t)PRINTK_BUF - 1);
}
