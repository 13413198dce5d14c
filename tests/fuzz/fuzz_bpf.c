/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the eBPF ELF loader and the interpreter, unverified.
 *
 * Input: [len_hi][len_lo] then len bytes of a burst (fuzz.h), then an ELF
 * object (the seeds are the tests/bpf programs, so mutations start from
 * real XDP objects). The object is opened through the public API as
 * "bpf-interp:FILE" with the kernel verifier off (tp_prog.h, TP_BPF_VERIFY_OFF,
 * the --bpf-unverified mode: tagpipe's own open-time checks and its
 * run-time bounds checks alone). Properties:
 *   - a refused object: -EINVAL or -ENOMEM and a message;
 *   - an opened one runs the burst: every verdict is an XDP action or the
 *     out-of-range marker the pipeline counts as bad_verdict, each mbuf
 *     is still a valid packet (rte_mbuf_check, pkt_len = sum of data_len,
 *     the same segment count: programs may move data, not chain or free),
 *     runs counted exactly, aborted runs no more than runs;
 *   - closing frees everything (LeakSanitizer), the pool is full again.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "tp_pipeline.h"
#include "tp_bpf.h"

/* A looping program may spend its whole budget, 10^6 backward jumps
 * (BPF_LOOP_BUDGET), per packet: a few packets keep one input well under
 * libFuzzer's timeout (libfuzzer.sh) even under ASan. */
#define FUZZ_BPF_BURST 4

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf *pkts[FUZZ_BPF_BURST];
	uint8_t verdict[FUZZ_BPF_BURST];
	uint32_t key[FUZZ_BPF_BURST];
	uint16_t segs[FUZZ_BPF_BURST];
	const struct tp_prog_ops *ops;
	struct tp_bpf_stats st;
	struct tp_prog_env env;
	struct tp_prog *p = NULL;
	char path[48], spec[64], err[512];
	long bl = fuzz_len16(&data, &size);
	const uint8_t *burst = data;
	size_t blen;
	uint16_t n;
	int fd, rc;

	if (bl < 0)
		return 0;
	blen = (size_t)bl;
	fuzz_pool();
	FUZZ_CHECK(tp_prog_bpf_set_verify(TP_BPF_VERIFY_OFF) == 0);
	fd = fuzz_memfd(data + blen, size - blen, path, sizeof(path));
	snprintf(spec, sizeof(spec), "bpf-interp:%s", path);
	err[0] = '\0';
	rc = tp_prog_open(spec, &p, err, sizeof(err));
	close(fd);
	if (rc != 0) {
		FUZZ_CHECK(rc == -EINVAL || rc == -ENOMEM);
		FUZZ_CHECK(err[0] != '\0');
		return 0;
	}
	n = fuzz_burst(&burst, &blen, pkts, FUZZ_BPF_BURST);
	for (uint16_t i = 0; i < n; i++)
		segs[i] = pkts[i]->nb_segs;
	ops = tp_prog_ops_of(p);
	env = (struct tp_prog_env){ .priv = tp_prog_priv(p), .port = 0, .queue = 0 };
	if (n > 0)
		ops->burst(&env, pkts, n, verdict, key);
	for (uint16_t i = 0; i < n; i++) {
		const char *why;
		uint32_t sum = 0;

		FUZZ_CHECK(verdict[i] <= TP_REDIRECT || verdict[i] == UINT8_MAX);
		FUZZ_CHECK(rte_mbuf_check(pkts[i], 1, &why) == 0);
		/* a tail edit may free emptied segments of a chain (the
		 * kernel's multi-buffer bpf_xdp_adjust_tail), never add one */
		FUZZ_CHECK(pkts[i]->nb_segs >= 1 && pkts[i]->nb_segs <= segs[i]);
		for (const struct rte_mbuf *s = pkts[i]; s != NULL; s = s->next)
			sum += s->data_len;
		FUZZ_CHECK(sum == pkts[i]->pkt_len);
	}
	FUZZ_CHECK(tp_prog_bpf_stats(p, &st) == 0);
	FUZZ_CHECK(st.runs == n);
	FUZZ_CHECK(st.aborted_oob + st.aborted_helper + st.aborted_loop <= st.runs);
	rte_pktmbuf_free_bulk(pkts, n);
	tp_prog_close(p);
	fuzz_check_pool();
	return 0;
}
