/* SPDX-License-Identifier: BSD-3-Clause */
/* tagpipe test harness; the contract is in tp_test.h. */
#include "tp_test.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

static int eal_started;
static char runtime_dir[4096];

/* DPDK makes /var/run/dpdk/<prefix> even with --no-shconf and leaves it
 * behind; remove it (empty by then) so test runs do not pile them up. */
static void
remove_runtime_dir(void)
{
	if (runtime_dir[0] != '\0')
		rmdir(runtime_dir);
}

/* Start the EAL once: in 4 KiB pages (tests) or in hugepages (benchmarks
 * on a machine that has them). */
static int
eal_start(const char *const *vdevs, bool huge)
{
	char prefix[64], simd[64];
	char *argv[64];
	int argc = 0;

	if (eal_started)
		return 0;
	snprintf(prefix, sizeof(prefix), "--file-prefix=tp_test_%d", (int)getpid());
	argv[argc++] = (char *)"tp_test";
	if (huge) {
		/* hugepages, no files: what a deployment runs in */
		argv[argc++] = (char *)"--in-memory";
	} else {
		argv[argc++] = (char *)"--no-huge";
		/* DPDK 22.11 rejects --no-huge with --in-memory (--no-huge
		 * implies the legacy memory layout); --no-shconf keeps the run
		 * file-free instead. */
		argv[argc++] = (char *)"--no-shconf";
		argv[argc++] = (char *)"-m";
		argv[argc++] = (char *)"512";
	}
	argv[argc++] = (char *)"--no-pci";
	argv[argc++] = (char *)"--no-telemetry";
	argv[argc++] = (char *)"-l";
	argv[argc++] = (char *)"0";
	argv[argc++] = (char *)"--log-level=lib.eal:error";
	argv[argc++] = prefix;
	/* TP_TEST_SIMD_BITWIDTH=128: the EAL's cap on vector width, so a test
	 * binary runs the 16-byte instances of code that has AVX2 ones */
	if (getenv("TP_TEST_SIMD_BITWIDTH") != NULL) {
		snprintf(simd, sizeof(simd), "--force-max-simd-bitwidth=%s",
			 getenv("TP_TEST_SIMD_BITWIDTH"));
		argv[argc++] = simd;
	}
	for (; vdevs != NULL && *vdevs != NULL && argc < 62; vdevs++) {
		argv[argc++] = (char *)"--vdev";
		argv[argc++] = (char *)*vdevs;
	}
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "tp_test: rte_eal_init failed: %s\n",
			rte_strerror(rte_errno));
		fail();
	}
	eal_started = 1;
	snprintf(runtime_dir, sizeof(runtime_dir), "%s", rte_eal_get_runtime_dir());
	atexit(remove_runtime_dir);
	return 0;
}

int
tp_test_eal_init(const char *const *vdevs)
{
	return eal_start(vdevs, false);
}

/* Free hugepages of size_kb (sysfs, Documentation/admin-guide/mm/hugetlbpage.rst). */
static unsigned long
free_hugepages(unsigned int size_kb)
{
	char path[128];
	unsigned long n = 0;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/kernel/mm/hugepages/hugepages-%ukB/free_hugepages", size_kb);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* Is a hugetlbfs mounted (the EAL maps its pages from one)? */
static bool
hugetlbfs_mounted(void)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "r");

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strstr(line, " hugetlbfs ") != NULL;
	fclose(f);
	return found;
}

bool
tp_test_eal_init_bench(void)
{
	/* 1 GiB of free hugepages covers every benchmark's pools. */
	bool huge = getenv("TP_TEST_NO_HUGE") == NULL && hugetlbfs_mounted() &&
		    (free_hugepages(2048) >= 512 || free_hugepages(1048576) >= 1);

	if (!huge && getenv("TP_TEST_NO_HUGE") == NULL)
		fprintf(stderr, "bench: warning: no 1 GiB of free hugepages; running in "
			"4 KiB pages, where TLB misses raise every figure (see README: "
			"Hugepages and deployment)\n");
	eal_start(NULL, huge);
	printf("  memory: %s\n", huge ? "hugepages (as deployed)" :
	       "4 KiB pages (--no-huge): figures include TLB misses");
	return huge;
}

int
tp_test_eal_setup(void **state)
{
	(void)state;
	return tp_test_eal_init(NULL);
}

struct rte_mempool *
tp_test_pool_create(const char *name, unsigned int n, uint16_t data_room)
{
	static unsigned int seq;
	char uname[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;

	if (data_room == 0)
		data_room = RTE_MBUF_DEFAULT_BUF_SIZE;
	snprintf(uname, sizeof(uname), "%.16s_%u", name, seq++);
	/* No per-lcore cache: in-use counts must be exact at every point. */
	mp = rte_pktmbuf_pool_create(uname, n, 0, 0, data_room, SOCKET_ID_ANY);
	if (mp == NULL) {
		fprintf(stderr, "tp_test: pool %s: %s\n", uname, rte_strerror(rte_errno));
		fail();
	}
	return mp;
}

struct rte_mbuf *
tp_test_mbuf_from_bytes(struct rte_mempool *mp, const void *data, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	char *p;

	assert_non_null(m);
	p = rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		fprintf(stderr, "tp_test: %u bytes do not fit one mbuf\n", len);
		fail();
	}
	memcpy(p, data, len);
	return m;
}

struct rte_mbuf *
tp_test_mbuf_chain_from_bytes(struct rte_mempool *mp, const void *data,
			      uint32_t len, uint16_t seg_len)
{
	const uint8_t *src = data;
	struct rte_mbuf *head = NULL, *tail = NULL;
	uint32_t off = 0;

	assert_true(seg_len > 0);
	do {
		uint32_t n = RTE_MIN((uint32_t)seg_len, len - off);
		struct rte_mbuf *seg = tp_test_mbuf_from_bytes(mp, src + off, n);

		if (head == NULL) {
			head = tail = seg;
		} else {
			tail->next = seg;
			tail = seg;
			head->nb_segs++;
			head->pkt_len += n;
		}
		off += n;
	} while (off < len);
	return head;
}

uint32_t
tp_test_mbuf_to_bytes(const struct rte_mbuf *m, void *buf, uint32_t buf_len)
{
	uint32_t len = rte_pktmbuf_pkt_len(m), off = 0;

	if (len > buf_len) {
		fprintf(stderr, "tp_test: packet of %u bytes, buffer of %u\n", len, buf_len);
		fail();
	}
	for (; m != NULL; m = m->next) {
		memcpy((uint8_t *)buf + off, rte_pktmbuf_mtod(m, const uint8_t *), m->data_len);
		off += m->data_len;
	}
	assert_int_equal(off, len);
	return len;
}

static void
dump(const char *what, const uint8_t *p, uint32_t len)
{
	fprintf(stderr, "%s (%u bytes):", what, len);
	for (uint32_t i = 0; i < len; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", p[i]);
	fprintf(stderr, "\n");
}

void
tp_test_assert_mbuf_bytes(const struct rte_mbuf *m, const void *data, uint32_t len)
{
	uint32_t plen = rte_pktmbuf_pkt_len(m);
	uint8_t *buf = malloc(plen ? plen : 1);
	uint32_t i;

	assert_non_null(buf);
	tp_test_mbuf_to_bytes(m, buf, plen);
	for (i = 0; i < plen && i < len; i++)
		if (buf[i] != ((const uint8_t *)data)[i])
			break;
	if (plen != len || i != len) {
		fprintf(stderr, "tp_test: mbuf differs at offset %u (lengths %u vs %u expected)\n",
			i, plen, len);
		dump("got", buf, plen);
		dump("expected", data, len);
		free(buf);
		fail();
	}
	free(buf);
}

size_t
tp_test_hex(const char *hex, uint8_t *buf, size_t buf_len)
{
	size_t n = 0;
	int hi = -1;

	for (; *hex; hex++) {
		int v;

		if (isspace((unsigned char)*hex) || *hex == ':' || *hex == '-')
			continue;
		if (!isxdigit((unsigned char)*hex)) {
			fprintf(stderr, "tp_test: bad hex digit '%c'\n", *hex);
			fail();
		}
		v = isdigit((unsigned char)*hex) ? *hex - '0' : (tolower((unsigned char)*hex) - 'a' + 10);
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n >= buf_len) {
			fprintf(stderr, "tp_test: hex string longer than %zu bytes\n", buf_len);
			fail();
		}
		buf[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	assert_true(hi < 0);
	return n;
}

static const char *
join(const char *env, const char *fallback, const char *rel)
{
	static char bufs[4][4096];
	static unsigned int k;
	const char *root = getenv(env);
	char *b = bufs[k++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/%s", root ? root : fallback, rel);
	return b;
}

const char *
tp_test_src_path(const char *rel)
{
	return join("TP_SOURCE_ROOT", ".", rel);
}

const char *
tp_test_build_path(const char *rel)
{
	return join("TP_BUILD_ROOT", ".", rel);
}

unsigned int
tp_test_pcap_read(const char *path, uint8_t ***frames, uint32_t **lens, int *linktype)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned int n = 0, cap = 16;
	pcap_t *p = pcap_open_offline(path, err);
	int rc;

	if (p == NULL) {
		fprintf(stderr, "tp_test: %s: %s\n", path, err);
		fail();
	}
	*frames = malloc(cap * sizeof(**frames));
	*lens = malloc(cap * sizeof(**lens));
	assert_true(*frames != NULL && *lens != NULL);
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (n == cap) {
			cap *= 2;
			*frames = realloc(*frames, cap * sizeof(**frames));
			*lens = realloc(*lens, cap * sizeof(**lens));
			assert_true(*frames != NULL && *lens != NULL);
		}
		(*frames)[n] = malloc(h->caplen ? h->caplen : 1);
		assert_non_null((*frames)[n]);
		memcpy((*frames)[n], data, h->caplen);
		(*lens)[n++] = h->caplen;
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "tp_test: %s: %s\n", path, pcap_geterr(p));
		fail();
	}
	if (linktype != NULL)
		*linktype = pcap_datalink(p);
	pcap_close(p);
	return n;
}

void
tp_test_pcap_free(uint8_t **frames, uint32_t *lens, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(frames[i]);
	free(frames);
	free(lens);
}
