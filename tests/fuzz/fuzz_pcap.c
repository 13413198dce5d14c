/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: tagpipe-replay's pcap reader (apps/replay/capture.c), and
 * its writer on what the reader accepted.
 *
 * Input: the bytes of a capture file. Properties: the reader either refuses
 * it (one error, nothing left allocated: frames NULL, count 0) or returns
 * frames whose lengths add up to its byte count and whose timestamps are
 * valid; those frames written with replay_writer and read back come out
 * byte for byte the same, with the same timestamps at the precision
 * written.
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "replay.h"

static char dir[64];

/* The reader's error line; the replay binary's own lives in options.c. */
void
replay_err(const char *fmt, ...)
{
	(void)fmt;
}

static void
put_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(fwrite(data, 1, size, f) == size || size == 0);
	FUZZ_CHECK(fclose(f) == 0);
}

/* A chain of pool mbufs holding the frame. */
static struct rte_mbuf *
chain(const struct replay_frame *fr)
{
	struct rte_mbuf *head = NULL;
	uint32_t off = 0;

	do {
		uint32_t n = RTE_MIN(fr->len - off, (uint32_t)FUZZ_MAX_FRAME);
		struct rte_mbuf *m = rte_pktmbuf_alloc(fuzz_pool());

		FUZZ_CHECK(m != NULL);
		if (n > 0)
			memcpy(rte_pktmbuf_append(m, (uint16_t)n), fr->data + off, n);
		off += n;
		if (head == NULL)
			head = m;
		else
			FUZZ_CHECK(rte_pktmbuf_chain(head, m) == 0);
	} while (off < fr->len);
	return head;
}

static int ts_ready;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in_path[96], out_path[96];
	const char *paths[1] = { in_path };
	struct replay_input in, back;
	struct replay_writer *w;
	uint64_t bytes = 0;

	fuzz_pool();
	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "%s/tp_fuzz_pcap_XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		FUZZ_CHECK(mkdtemp(dir) != NULL);
	}
	snprintf(in_path, sizeof(in_path), "%s/in.pcap", dir);
	snprintf(out_path, sizeof(out_path), "%s/out.pcap", dir);
	put_file(in_path, data, size);
	if (replay_load(paths, 1, &in) < 0) {
		FUZZ_CHECK(in.frames == NULL && in.nb_frames == 0 && in.bytes == 0);
		goto end;
	}
	for (uint32_t i = 0; i < in.nb_frames; i++)
		bytes += in.frames[i].len;
	FUZZ_CHECK(bytes == in.bytes);

	if (!ts_ready) {
		FUZZ_CHECK(replay_timestamp_init() == 0);
		ts_ready = 1;
	}
	w = replay_writer_open(out_path, in.dlt, in.nsec, false);
	FUZZ_CHECK(w != NULL);
	for (uint32_t i = 0; i < in.nb_frames; i++) {
		struct rte_mbuf *m = chain(&in.frames[i]);

		replay_timestamp_set(m, in.frames[i].ts_ns);
		FUZZ_CHECK(replay_writer_put(w, m) == 0);
		rte_pktmbuf_free(m);
	}
	FUZZ_CHECK(replay_writer_commit(w) == 0);
	paths[0] = out_path;
	FUZZ_CHECK(replay_load(paths, 1, &back) == 0);
	FUZZ_CHECK(back.nb_frames == in.nb_frames && back.bytes == in.bytes);
	for (uint32_t i = 0; i < in.nb_frames; i++) {
		FUZZ_CHECK(back.frames[i].len == in.frames[i].len);
		FUZZ_CHECK(memcmp(back.frames[i].data, in.frames[i].data, in.frames[i].len) == 0);
		/* an accepted time is valid (fraction carried, 1970..2038) and
		 * survives at the precision written */
		FUZZ_CHECK(in.frames[i].ts_ns <= (uint64_t)INT32_MAX * 1000000000u + 999999999u);
		FUZZ_CHECK(in.nsec ? back.frames[i].ts_ns == in.frames[i].ts_ns :
			   back.frames[i].ts_ns / 1000 == in.frames[i].ts_ns / 1000);
	}
	replay_input_free(&back);
	replay_input_free(&in);
	unlink(out_path);
end:
	unlink(in_path);
	fuzz_check_pool();
	return 0;
}
