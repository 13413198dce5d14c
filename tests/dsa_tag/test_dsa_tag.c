/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/dsa_tag: registry, exact RX decode and TX bytes for every tagger
 * (docs/ref/dsa-tags.md §3 formats, §4 worked examples), round trips
 * strip(insert(f, port)) == f for every tagger, port and device the tag can
 * name (untagged and 802.1Q inner frames), bad input and mbuf accounting.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tp_test.h"
#include "tp_dsa_tag.h"
#include "tp_vlan.h"

static struct rte_mempool *mp;

/* docs/ref/dsa-tags.md §4.1: RX frame "from port 3" and TX frame "to port 3" (54 bytes). */
static const char rx_hex[] =
	"02 00 00 00 00 01 02 00 00 00 00 02 08 00 45 00"
	"00 28 00 01 40 00 40 06 b6 cb c0 00 02 02 c0 00"
	"02 01 9c 40 00 50 00 00 00 01 00 00 00 00 50 02"
	"ff ff 8f 4d 00 00";
static const char tx_hex[] =
	"02 00 00 00 00 02 02 00 00 00 00 01 08 00 45 00"
	"00 28 00 01 40 00 40 06 b6 cb c0 00 02 01 c0 00"
	"02 02 00 50 9c 40 00 00 03 e8 00 00 00 00 50 12"
	"ff ff 8b 56 00 00";
static uint8_t rxf[64], txf[64];
static size_t rxf_len, txf_len;

static int
setup(void **state)
{
	(void)state;
	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("dsa", 1024, 0);
	rxf_len = tp_test_hex(rx_hex, rxf, sizeof(rxf));
	txf_len = tp_test_hex(tx_hex, txf, sizeof(txf));
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	rte_mempool_free(mp);
	return 0;
}

static const struct tp_dsa_tagger *
tagger(const char *name)
{
	const struct tp_dsa_tagger *t = tp_dsa_tagger_find(name);

	if (t == NULL)
		fprintf(stderr, "no tagger %s\n", name);
	assert_non_null(t);
	return t;
}

/* frame with a tag placed where tagger t puts it. */
static size_t
place(const struct tp_dsa_tagger *t, const uint8_t *f, size_t flen,
      const uint8_t *tag, size_t tlen, uint8_t *out)
{
	switch (t->position) {
	case TP_DSA_POS_BEFORE_DA:
		memcpy(out, tag, tlen);
		memcpy(out + tlen, f, flen);
		break;
	case TP_DSA_POS_AFTER_SA:
		memcpy(out, f, 12);
		memcpy(out + 12, tag, tlen);
		memcpy(out + 12 + tlen, f + 12, flen - 12);
		break;
	case TP_DSA_POS_TAIL:
		memcpy(out, f, flen);
		memcpy(out + flen, tag, tlen);
		break;
	default:
		memcpy(out, f, flen);
		return flen;
	}
	return flen + tlen;
}

/* ---- meta not registered: strip works, insert needs an explicit port ---- */

static void
test_unregistered_meta(void **state)
{
	const struct tp_dsa_tagger *t = tagger("dsa");
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_dsa_stats st = { 0 };
	struct rte_mbuf *m;
	uint8_t f[128];
	size_t len = place(t, rxf, rxf_len, (const uint8_t[]){ 0xc0, 0x18, 0, 0 }, 4, f);

	(void)state;
	assert_true(tp_dsa_meta_offset < 0);
	m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	assert_int_equal(tp_dsa_strip_burst(t, &m, 1, NULL, NULL, &st), 1);
	tp_test_assert_mbuf_bytes(m, rxf, (uint32_t)rxf_len);
	assert_int_equal(tp_dsa_insert_burst(t, &m, 1, NULL, NULL, &st), 0);
	assert_int_equal(st.drop[TP_DSA_DROP_NO_DEST], 1);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
	assert_int_equal(tp_dsa_meta_register(), 0);
	assert_true(tp_dsa_meta_offset >= 0);
	assert_int_equal(tp_dsa_meta_register(), 0); /* idempotent */
}

/* ---- registry ---- */

static const struct {
	const char *name;
	unsigned int proto;
} names[] = {
	{ "none", 0 }, { "brcm", 1 }, { "brcm-prepend", 2 }, { "dsa", 3 }, { "edsa", 4 },
	{ "gswip", 5 }, { "ksz9477", 6 }, { "ksz9893", 7 }, { "lan9303", 8 }, { "mtk", 9 },
	{ "qca", 10 }, { "trailer", 11 }, { "sja1105", 13 }, { "ksz8795", 14 },
	{ "ocelot", 15 }, { "ar9331", 16 }, { "rtl4a", 17 }, { "hellcreek", 18 },
	{ "xrs700x", 19 }, { "ocelot-8021q", 20 }, { "seville", 21 }, { "brcm-legacy", 22 },
	{ "sja1110", 23 }, { "rtl8_4", 24 }, { "rtl8_4t", 25 }, { "a5psw", 26 },
	{ "lan937x", 27 }, { "vsc73xx-8021q", 28 }, { "yt921x", 30 }, { "gsw1xx", 31 },
	{ "mxl862xx", 32 }, { "nxp_netc", 33 }, { "ksz8463", 34 }, { "mt7628", 35 },
};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

static void
test_registry(void **state)
{
	const struct tp_dsa_tagger *all[64];
	char buf[1024];
	unsigned int i, n;
	int len;

	(void)state;
	for (i = 0; i < N_NAMES; i++) {
		const struct tp_dsa_tagger *t = tagger(names[i].name);

		assert_int_equal(t->proto, names[i].proto);
		assert_ptr_equal(tp_dsa_tagger_find_proto(names[i].proto), t);
		assert_string_equal(t->name, names[i].name);
	}
	n = tp_dsa_tagger_list(all, 64);
	assert_int_equal(n, N_NAMES);
	for (i = 1; i < n; i++)
		assert_true(all[i - 1]->proto < all[i]->proto);
	assert_null(tp_dsa_tagger_find("8021q"));
	assert_null(tp_dsa_tagger_find("brcm-legacy-fcs"));
	assert_null(tp_dsa_tagger_find("DSA"));
	assert_null(tp_dsa_tagger_find(NULL));
	assert_null(tp_dsa_tagger_find_proto(12));
	assert_null(tp_dsa_tagger_find_proto(1000));
	len = tp_dsa_tagger_names(buf, sizeof(buf));
	assert_int_equal(len, (int)strlen(buf));
	assert_string_equal(buf,
		"a5psw, ar9331, brcm, brcm-legacy, brcm-prepend, dsa, edsa, gsw1xx, gswip, "
		"hellcreek, ksz8463, ksz8795, ksz9477, ksz9893, lan9303, lan937x, mt7628, mtk, "
		"mxl862xx, none, nxp_netc, ocelot, ocelot-8021q, qca, rtl4a, rtl8_4, rtl8_4t, "
		"seville, sja1105, sja1110, trailer, vsc73xx-8021q, xrs700x, yt921x");
	assert_int_equal(tp_dsa_tagger_names(buf, 5), len); /* truncated, full length */
	assert_string_equal(buf, "a5ps");
	assert_string_equal(tp_dsa_drop_name(TP_DSA_DROP_BAD_MARKER), "bad_marker");
	assert_null(tp_dsa_drop_name(TP_DSA_DROP_MAX));
}

static void
test_conf_check(void **state)
{
	struct tp_dsa_conf c = { 0 };

	(void)state;
	assert_int_equal(tp_dsa_conf_check(tagger("dsa"), NULL), 0);
	assert_int_equal(tp_dsa_conf_check(tagger("ocelot"), &c), -EINVAL);
	assert_int_equal(tp_dsa_conf_check(tagger("seville"), NULL), -EINVAL);
	assert_int_equal(tp_dsa_conf_check(tagger("mxl862xx"), NULL), -EINVAL);
	{
		/* The need for the CPU port is the tagger's property, not a
		 * list of protocols in the registry: exactly these three
		 * have it, and a copy of a tagger follows its flags. */
		const struct tp_dsa_tagger *all[64];
		struct tp_dsa_tagger t;
		unsigned int n = tp_dsa_tagger_list(all, 64);

		for (unsigned int i = 0; i < n && i < 64; i++) {
			bool want = strcmp(all[i]->name, "ocelot") == 0 ||
				    strcmp(all[i]->name, "seville") == 0 ||
				    strcmp(all[i]->name, "mxl862xx") == 0;

			if (!!(all[i]->flags & TP_DSA_TAGGER_F_TX_CPU_PORT) != want)
				fail_msg("%s: TP_DSA_TAGGER_F_TX_CPU_PORT %s", all[i]->name,
					 want ? "missing" : "set");
		}
		t = *tagger("dsa");
		t.flags |= TP_DSA_TAGGER_F_TX_CPU_PORT;
		assert_int_equal(tp_dsa_conf_check(&t, &c), -EINVAL);
		t = *tagger("ocelot");
		t.flags &= (uint8_t)~TP_DSA_TAGGER_F_TX_CPU_PORT;
		assert_int_equal(tp_dsa_conf_check(&t, &c), 0);
	}
	c.flags = TP_DSA_CONF_F_CPU_PORT;
	c.cpu_port = 11;
	assert_int_equal(tp_dsa_conf_check(tagger("ocelot"), &c), 0);
	c.n_ports = 33;
	assert_int_equal(tp_dsa_conf_check(tagger("dsa"), &c), -EINVAL);
	c.n_ports = 32;
	assert_int_equal(tp_dsa_conf_check(tagger("dsa"), &c), 0);
	c.n_devices = 2;
	assert_int_equal(tp_dsa_conf_check(tagger("brcm"), &c), -EINVAL);
	c.n_devices = 0;
	c.flags |= TP_DSA_CONF_F_TX_PORT;
	c.tx_port = 9;
	assert_int_equal(tp_dsa_conf_check(tagger("brcm"), &c), -EINVAL);
	c.tx_port = 8;
	c.n_ports = 0;
	assert_int_equal(tp_dsa_conf_check(tagger("brcm"), &c), 0);
	assert_int_equal(tp_dsa_conf_check(NULL, &c), -EINVAL);
	c = (struct tp_dsa_conf){ .flags = TP_DSA_CONF_F_VBID_MAP };
	memset(c.vbid_port, 0xFF, sizeof(c.vbid_port));
	c.vbid_port[3] = 15;
	assert_int_equal(tp_dsa_conf_check(tagger("sja1105"), &c), 0);
	c.vbid_port[3] = 16;
	assert_int_equal(tp_dsa_conf_check(tagger("sja1105"), &c), -EINVAL);
	assert_int_equal(tp_dsa_conf_check(tagger("none"), &c), 0);
}

/* ---- RX decode, one row per case ---- */

#define KEPT -1
#define PASSED -2

struct rx_case {
	const char *tagger;
	const char *tag;      /* tag bytes at the tagger's position */
	int result;           /* KEPT, PASSED or a drop reason */
	uint8_t port, device, prio, ft, flags;
	uint16_t vid;
	const char *after;    /* bytes replacing the tag in the output (dsa tagged) */
};

#define FV TP_DSA_META_F_VALID
static const struct rx_case rx_cases[] = {
	{ "none", "", KEPT, 0, 0, 0, 0, 0, 0, NULL },
	/* brcm / brcm-prepend (§3.2): T3 = TC << 5 | port */
	{ "brcm", "00 00 20 03", KEPT, 3, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "brcm", "00 7f 04 7d", KEPT, 29, 0, 3, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "brcm", "20 00 00 08", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	{ "brcm", "00 00 40 03", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	{ "brcm", "00 00 80 03", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	{ "brcm-prepend", "00 00 20 05", KEPT, 5, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "brcm-prepend", "e0 00 20 05", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	/* brcm-legacy: neither 0x8874 nor op checked; T5 3:0 port */
	{ "brcm-legacy", "88 74 00 00 00 03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "brcm-legacy", "12 34 e0 ff ff f5", KEPT, 5, 0, 0, 0, FV, 0, NULL },
	/* dsa (§4.3 and its variants) */
	{ "dsa", "c0 18 00 00", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "dsa", "c0 18 00 01", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 1, NULL },
	{ "dsa", "c0 18 a0 01", KEPT, 3, 0, 5, TP_DSA_FT_FORWARD, FV, 1, NULL },
	{ "dsa", "00 18 00 00", KEPT, 3, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "dsa", "e0 18 00 64", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD,
	  FV | TP_DSA_META_F_TAG_VLAN, 100, "81 00 00 64" },
	{ "dsa", "e0 18 b0 64", KEPT, 3, 0, 5, TP_DSA_FT_FORWARD,
	  FV | TP_DSA_META_F_TAG_VLAN, 100, "81 00 a0 64" }, /* T2 bit 4 is not DEI */
	{ "dsa", "ff f9 bf ff", KEPT, 31, 31, 5, TP_DSA_FT_FORWARD,
	  FV | TP_DSA_META_F_TAG_VLAN, 4095, "81 00 bf ff" }, /* trunk bit 0: port 31 */
	{ "dsa", "c5 1c 00 00", KEPT, 3, 5, 0, TP_DSA_FT_FORWARD, FV | TP_DSA_META_F_TRUNK, 0, NULL },
	{ "dsa", "00 1a 00 00", KEPT, 3, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL }, /* code 2 */
	{ "dsa", "00 1c 10 00", KEPT, 3, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL }, /* code 5 */
	{ "dsa", "00 18 10 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL }, /* code 1 */
	{ "dsa", "00 1e 00 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL }, /* code 6 */
	{ "dsa", "00 1e 10 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL }, /* code 7 */
	{ "dsa", "40 18 00 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL }, /* FROM_CPU */
	{ "dsa", "80 18 00 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL }, /* TO_SNIFFER */
	/* edsa (§4.4): marker and reserved bytes are not checked */
	{ "edsa", "da da 00 00 c0 18 00 00", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "edsa", "12 34 56 78 c0 18 00 00", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "edsa", "da da 00 00 e0 18 00 64", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD,
	  FV | TP_DSA_META_F_TAG_VLAN, 100, "81 00 00 64" },
	{ "edsa", "da da 00 00 40 18 00 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	/* gswip: 8 bytes, byte 7 bits 6:4 */
	{ "gswip", "00 00 00 00 00 00 00 30", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "gswip", "ff ff ff ff ff ff ff 8f", KEPT, 0, 0, 0, 0, FV, 0, NULL },
	/* tail taggers */
	{ "ksz8795", "03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "ksz8795", "fe", KEPT, 2, 0, 0, 0, FV, 0, NULL },
	{ "ksz9477", "06", KEPT, 6, 0, 0, 0, FV, 0, NULL },
	{ "ksz9477", "11 22 33 44 83", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "ksz9893", "82 9a bc de 82", KEPT, 2, 0, 0, 0, FV, 0, NULL },
	{ "lan937x", "05", KEPT, 5, 0, 0, 0, FV, 0, NULL },
	{ "ksz8463", "7e", KEPT, 6, 0, 0, 0, FV, 0, NULL },
	{ "hellcreek", "07", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "xrs700x", "08", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "xrs700x", "0c", KEPT, 2, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "xrs700x", "00", TP_DSA_DROP_NO_PORT, 0, 0, 0, 0, 0, 0, NULL },
	{ "trailer", "80 03 00 00", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "trailer", "80 07 10 00", KEPT, 7, 0, 0, 0, FV, 0, NULL },
	{ "trailer", "81 03 00 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "trailer", "80 0b 00 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "trailer", "80 03 20 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "trailer", "80 03 00 01", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "rtl8_4t", "88 99 04 00 00 00 00 03", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "rtl8_4t", "88 99 04 50 0b 00 00 0a", KEPT, 10, 0, 3, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "rtl8_4t", "88 99 05 00 00 00 00 03", TP_DSA_DROP_BAD_VERSION, 0, 0, 0, 0, 0, 0, NULL },
	/* lan9303: W0 0x8100 checked; bits 3/4 are traps */
	{ "lan9303", "81 00 00 03", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "lan9303", "81 00 00 0a", KEPT, 2, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "lan9303", "81 00 00 11", KEPT, 1, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "lan9303", "88 a8 00 03", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	/* mtk / mt7628: W0 2:0 */
	{ "mtk", "00 03 00 00", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "mtk", "ff fd ff ff", KEPT, 5, 0, 0, 0, FV, 0, NULL },
	{ "mt7628", "81 0b 0c 03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	/* qca: version 2, types 1/2 are management frames */
	{ "qca", "80 03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "qca", "98 0e", KEPT, 6, 0, 3, 0, FV | TP_DSA_META_F_TAG_VLAN, 0, NULL },
	{ "qca", "40 03", TP_DSA_DROP_BAD_VERSION, 0, 0, 0, 0, 0, 0, NULL },
	{ "qca", "80 43", TP_DSA_DROP_MGMT, 0, 0, 0, 0, 0, 0, NULL },
	{ "qca", "80 83", TP_DSA_DROP_MGMT, 0, 0, 0, 0, 0, 0, NULL },
	/* ar9331 (§4.2): 33 40 = port 3 unicast, b3 40 broadcast */
	{ "ar9331", "33 40", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "ar9331", "b3 40", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "ar9331", "3f 70", KEPT, 15, 0, 3, 0, FV, 0, NULL },
	{ "ar9331", "73 40", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	{ "ar9331", "33 00", TP_DSA_DROP_BAD_VERSION, 0, 0, 0, 0, 0, 0, NULL },
	/* ocelot / seville extraction header: SRC_PORT 46:43, QOS 19:17, VID 11:0 */
	{ "ocelot", "88 80 00 0a 00 00 00 00 00 00 00 00 00 00 18 00 00 04 00 64",
	  KEPT, 3, 0, 2, 0, FV, 100, NULL },
	{ "seville", "00 00 00 00 ff ff ff ff ff ff ff ff ff ff 87 ff ff f1 ff ff",
	  KEPT, 0, 0, 0, 0, FV, 4095, NULL },
	/* rtl4a: no 0x8899 = not tagged, passed */
	{ "rtl4a", "88 99 a0 03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "rtl4a", "88 99 af c8", KEPT, 200, 0, 0, 0, FV, 0, NULL },
	{ "rtl4a", "88 99 b0 03", TP_DSA_DROP_BAD_VERSION, 0, 0, 0, 0, 0, 0, NULL },
	{ "rtl4a", "", PASSED, 0, 0, 0, 0, 0, 0, NULL },
	/* rtl8_4 */
	{ "rtl8_4", "88 99 04 00 00 00 00 03", KEPT, 3, 0, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "rtl8_4", "88 99 04 50 03 00 80 0f", KEPT, 15, 0, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "rtl8_4", "88 98 04 00 00 00 00 03", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "rtl8_4", "88 99 05 00 00 00 00 03", TP_DSA_DROP_BAD_VERSION, 0, 0, 0, 0, 0, 0, NULL },
	/* a5psw */
	{ "a5psw", "e0 01 00 03 00 00 00 00", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "a5psw", "e0 02 00 03 00 00 00 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	/* yt921x: W2 15 valid, 14:11 port, 10:8 prio, 7 code valid, 6:1 code */
	{ "yt921x", "99 88 00 00 9d 80 00 00", KEPT, 3, 0, 5, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "yt921x", "99 88 00 00 9d b2 00 00", KEPT, 3, 0, 5, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "yt921x", "99 88 00 00 9d b6 00 00", KEPT, 3, 0, 5, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "yt921x", "99 88 00 00 1d 80 00 00", TP_DSA_DROP_NO_PORT, 0, 0, 0, 0, 0, 0, NULL },
	{ "yt921x", "99 89 00 00 9d 80 00 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	/* gsw1xx W1 15:8, mxl862xx W3 3:0 */
	{ "gsw1xx", "88 c3 03 00 00 00 00 00", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "gsw1xx", "88 c4 03 00 00 00 00 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "mxl862xx", "88 c3 00 00 00 00 00 03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "mxl862xx", "88 c2 00 00 00 00 00 03", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	/* nxp_netc */
	{ "nxp_netc", "fd 3a 00 00 19 00", KEPT, 3, 1, 0, TP_DSA_FT_FORWARD, FV, 0, NULL },
	{ "nxp_netc", "fd 3a 20 0d 1a 00", KEPT, 3, 2, 3, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "nxp_netc", "fd 3a 20 0c 1a 00", KEPT, 3, 2, 0, TP_DSA_FT_TO_CPU, FV, 0, NULL },
	{ "nxp_netc", "fd 3a 21 00 19 00", TP_DSA_DROP_UNSUPPORTED, 0, 0, 0, 0, 0, 0, NULL },
	{ "nxp_netc", "fd 3a 00 00 18 00", TP_DSA_DROP_UNSUPPORTED, 0, 0, 0, 0, 0, 0, NULL },
	{ "nxp_netc", "fd 3a 10 00 19 00", TP_DSA_DROP_BAD_TYPE, 0, 0, 0, 0, 0, 0, NULL },
	{ "nxp_netc", "fd 3b 00 00 19 00", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	/* tag_8021q family (§1.3) */
	{ "ocelot-8021q", "81 00 6c 03", KEPT, 3, 0, 3, 0, FV, 0, NULL },
	{ "ocelot-8021q", "81 00 0d cf", KEPT, 15, 7, 0, 0, FV, 0, NULL },
	{ "ocelot-8021q", "81 00 0c 13", TP_DSA_DROP_BRIDGE_VID, 0, 0, 0, 0, 0, 0, NULL },
	{ "ocelot-8021q", "81 00 0e 03", TP_DSA_DROP_BRIDGE_VID, 0, 0, 0, 0, 0, 0, NULL },
	{ "ocelot-8021q", "81 00 00 64", PASSED, 0, 0, 0, 0, 0, 0, NULL },
	{ "ocelot-8021q", "da db 0c 03", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "vsc73xx-8021q", "81 00 0c 43", KEPT, 3, 1, 0, 0, FV, 0, NULL },
	{ "sja1105", "da db 0c 03", KEPT, 3, 0, 0, 0, FV, 0, NULL },
	{ "sja1105", "81 00 ac 83", KEPT, 3, 2, 5, 0, FV, 0, NULL },
	{ "sja1105", "88 a8 0c 03", TP_DSA_DROP_BAD_MARKER, 0, 0, 0, 0, 0, 0, NULL },
	{ "sja1110", "da db 0c 0a", KEPT, 10, 0, 0, 0, FV, 0, NULL },
	{ "sja1110", "da dc 00 00", TP_DSA_DROP_UNSUPPORTED, 0, 0, 0, 0, 0, 0, NULL },
};

static void
test_rx_cases(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(rx_cases) / sizeof(rx_cases[0]); i++) {
		const struct rx_case *rc = &rx_cases[i];
		const struct tp_dsa_tagger *t = tagger(rc->tagger);
		struct tp_dsa_stats st = { 0 };
		uint8_t tag[32], f[160], exp[160], after[8];
		size_t tl = tp_test_hex(rc->tag, tag, sizeof(tag));
		size_t len = place(t, rxf, rxf_len, tag, tl, f);
		size_t al = 0;
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
		struct rte_mbuf *drop = NULL;
		uint16_t k;

		fprintf(stderr, "rx case %u: %s [%s]\n", i, rc->tagger, rc->tag);
		k = tp_dsa_strip_burst(t, &m, 1, NULL, &drop, &st);
		assert_int_equal(st.in, 1);
		if (rc->result >= 0) {
			assert_int_equal(k, 0);
			assert_ptr_not_equal(drop, NULL);
			assert_int_equal(st.drop[rc->result], 1);
			tp_test_assert_mbuf_bytes(drop, f, (uint32_t)len); /* untouched */
			rte_pktmbuf_free(drop);
			continue;
		}
		assert_int_equal(k, 1);
		assert_int_equal(st.out, 1);
		assert_int_equal(st.passed, rc->result == PASSED);
		if (rc->after != NULL)
			al = tp_test_hex(rc->after, after, sizeof(after));
		if (rc->result == PASSED) {
			memcpy(exp, f, len);
			al = len;
		} else {
			memcpy(exp, rxf, 12);
			memcpy(exp + 12, after, al);
			memcpy(exp + 12 + al, rxf + 12, rxf_len - 12);
			al += rxf_len;
		}
		tp_test_assert_mbuf_bytes(m, exp, (uint32_t)al);
		{
			const struct tp_dsa_meta *md = tp_dsa_meta(m);

			assert_int_equal(md->proto, t->proto);
			assert_int_equal(md->flags, rc->flags);
			assert_int_equal(md->port, rc->port);
			assert_int_equal(md->device, rc->device);
			assert_int_equal(md->prio, rc->prio);
			assert_int_equal(md->frame_type, rc->ft);
			assert_int_equal(md->tag_vid, rc->vid);
		}
		rte_pktmbuf_free(m);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Every port each RX tag can name: the port field ORed into a template. */
static const struct {
	const char *tagger, *tag;
	uint8_t byte, shift;   /* where the port field sits (tail: byte from the tag start) */
	uint16_t ports;        /* how many ports the field names */
} rx_ports[] = {
	{ "brcm", "00 00 20 00", 3, 0, 32 },
	{ "brcm-prepend", "00 00 20 00", 3, 0, 32 },
	{ "brcm-legacy", "88 74 00 00 00 00", 5, 0, 16 },
	{ "dsa", "c0 00 00 00", 1, 3, 32 },
	{ "edsa", "da da 00 00 c0 00 00 00", 5, 3, 32 },
	{ "gswip", "00 00 00 00 00 00 00 00", 7, 4, 8 },
	{ "ksz8795", "00", 0, 0, 4 },
	{ "ksz9477", "00", 0, 0, 8 },
	{ "ksz9893", "00", 0, 0, 8 },
	{ "lan937x", "00", 0, 0, 8 },
	{ "ksz8463", "00", 0, 0, 8 },
	{ "hellcreek", "00", 0, 0, 4 },
	{ "trailer", "80 00 00 00", 1, 0, 8 },
	{ "lan9303", "81 00 00 00", 3, 0, 4 },
	{ "mtk", "00 00 00 00", 1, 0, 8 },
	{ "mt7628", "81 00 0c 00", 1, 0, 8 },
	{ "qca", "80 00", 1, 0, 8 },
	{ "ar9331", "30 40", 0, 0, 16 },
	{ "ocelot", "88 80 00 0a 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", 14, 3, 16 },
	{ "seville", "88 80 00 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", 14, 3, 16 },
	{ "rtl4a", "88 99 a0 00", 3, 0, 256 },
	{ "rtl8_4", "88 99 04 00 00 00 00 00", 7, 0, 16 },
	{ "rtl8_4t", "88 99 04 00 00 00 00 00", 7, 0, 16 },
	{ "a5psw", "e0 01 00 00 00 00 00 00", 3, 0, 16 },
	{ "yt921x", "99 88 00 00 80 00 00 00", 4, 3, 16 },
	{ "gsw1xx", "88 c3 00 00 00 00 00 00", 2, 0, 256 },
	{ "mxl862xx", "88 c3 00 00 00 00 00 00", 7, 0, 16 },
	{ "nxp_netc", "fd 3a 00 00 01 00", 4, 3, 32 },
	{ "ocelot-8021q", "81 00 0c 00", 3, 0, 16 },
	{ "vsc73xx-8021q", "81 00 0c 00", 3, 0, 16 },
	{ "sja1105", "da db 0c 00", 3, 0, 16 },
	{ "sja1110", "da db 0c 00", 3, 0, 16 },
};

static void
test_rx_every_port(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int i, port, total = 0;

	(void)state;
	for (i = 0; i < sizeof(rx_ports) / sizeof(rx_ports[0]); i++) {
		const struct tp_dsa_tagger *t = tagger(rx_ports[i].tagger);

		assert_int_equal(t->rx_ports, rx_ports[i].ports);
		for (port = 0; port < rx_ports[i].ports; port++) {
			struct tp_dsa_stats st = { 0 };
			uint8_t tag[32], f[160];
			size_t tl = tp_test_hex(rx_ports[i].tag, tag, sizeof(tag)), len;
			struct rte_mbuf *m;

			tag[rx_ports[i].byte] |= (uint8_t)(port << rx_ports[i].shift);
			len = place(t, rxf, rxf_len, tag, tl, f);
			m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
			if (tp_dsa_strip_burst(t, &m, 1, NULL, NULL, &st) != 1) {
				fprintf(stderr, "%s port %u dropped\n", t->name, port);
				fail();
			}
			tp_test_assert_mbuf_bytes(m, rxf, (uint32_t)rxf_len);
			assert_int_equal(tp_dsa_meta(m)->port, port);
			assert_int_equal(tp_dsa_meta(m)->flags & TP_DSA_META_F_VALID,
					 TP_DSA_META_F_VALID);
			rte_pktmbuf_free(m);
			total++;
		}
	}
	/* xrs700x names its port one-hot. */
	for (port = 0; port < 8; port++) {
		struct tp_dsa_stats st = { 0 };
		uint8_t f[160];
		uint8_t tag = (uint8_t)(1u << port | 0x80); /* lowest set bit wins */
		size_t len = place(tagger("xrs700x"), rxf, rxf_len, &tag, 1, f);
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);

		assert_int_equal(tp_dsa_strip_burst(tagger("xrs700x"), &m, 1, NULL, NULL, &st), 1);
		assert_int_equal(tp_dsa_meta(m)->port, port);
		rte_pktmbuf_free(m);
	}
	fprintf(stderr, "%u RX port decodes\n", total + 8);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- TX layout, one row per case ---- */

struct tx_case {
	const char *tagger;
	uint8_t port, device, prio;
	uint16_t pad;        /* the untagged frame is padded to this first */
	const char *tag;     /* expected tag bytes at the tagger's TX position */
	uint32_t flags;      /* extra conf flags */
	uint8_t cpu_port;
	uint16_t tx_vid;
};

static const struct tx_case tx_cases[] = {
	{ "none", 3, 0, 0, 0, "", 0, 0, 0 },
	{ "dsa", 3, 0, 0, 0, "40 18 00 00", 0, 0, 0 },            /* §4.3 */
	{ "dsa", 3, 0, 0, 0, "40 18 0f ff", 0, 0, 4095 },         /* bridged VID */
	{ "dsa", 31, 31, 7, 0, "5f f8 00 00", 0, 0, 0 },
	{ "edsa", 3, 0, 0, 0, "da da 00 00 40 18 00 00", 0, 0, 0 }, /* §4.4 */
	{ "ar9331", 3, 0, 0, 0, "73 40", 0, 0, 0 },              /* §4.2 */
	{ "ar9331", 15, 0, 0, 0, "7f 40", 0, 0, 0 },
	{ "brcm", 3, 0, 0, 64, "20 00 00 08", 0, 0, 0 },
	{ "brcm", 7, 0, 3, 64, "2c 00 00 80", 0, 0, 0 },          /* brcm-tag.pcap IG */
	{ "brcm", 8, 0, 0, 64, "20 00 01 00", 0, 0, 0 },
	{ "brcm-prepend", 5, 0, 0, 64, "20 00 00 20", 0, 0, 0 },
	{ "brcm-legacy", 3, 0, 0, 66, "88 74 40 00 00 03", 0, 0, 0 },
	{ "gswip", 3, 0, 0, 0, "02 00 c0 11", 0, 0, 0 },
	{ "gswip", 5, 0, 0, 0, "02 00 c0 41", 0, 0, 0 },
	{ "ksz8795", 3, 0, 0, 0, "08", 0, 0, 0 },
	{ "ksz9477", 3, 0, 2, 0, "01 08", 0, 0, 0 },
	{ "ksz9893", 2, 0, 1, 0, "0c", 0, 0, 0 },
	{ "lan937x", 3, 0, 5, 0, "25 08", 0, 0, 0 },
	{ "ksz8463", 1, 0, 3, 0, "1a", 0, 0, 0 },
	{ "hellcreek", 3, 0, 0, 0, "08", 0, 0, 0 },
	{ "xrs700x", 7, 0, 0, 0, "80", 0, 0, 0 },
	{ "trailer", 3, 0, 0, 60, "80 08 10 00", 0, 0, 0 },
	{ "lan9303", 2, 0, 0, 0, "81 00 00 12", 0, 0, 0 },
	{ "lan9303", 2, 0, 0, 0, "81 00 00 08", TP_DSA_CONF_F_LAN9303_ALR, 0, 0 },
	{ "mtk", 3, 0, 0, 60, "00 08 00 00", 0, 0, 0 },
	{ "mtk", 5, 1, 0, 60, "00 a0 00 00", 0, 0, 0 },
	{ "mt7628", 3, 0, 0, 0, "81 08 0c 03", 0, 0, 0 },
	{ "qca", 3, 0, 0, 0, "80 88", 0, 0, 0 },
	{ "qca", 6, 0, 0, 0, "80 c0", 0, 0, 0 },
	{ "ocelot", 3, 0, 2, 0, "88 80 00 0a 80 00 00 00 00 00 00 00 08 00 58 00 00 04 00 00",
	  TP_DSA_CONF_F_CPU_PORT, 11, 0 },
	{ "ocelot", 9, 0, 0, 0, "88 80 00 0a 80 00 00 00 00 00 00 02 00 00 58 00 00 00 00 00",
	  TP_DSA_CONF_F_CPU_PORT, 11, 0 },
	{ "seville", 3, 0, 2, 0, "88 80 00 05 80 00 00 00 00 00 00 00 10 00 50 00 00 04 00 00",
	  TP_DSA_CONF_F_CPU_PORT, 10, 0 },
	{ "seville", 10, 0, 0, 0, "88 80 00 05 80 00 00 00 00 00 00 08 00 00 50 00 00 00 00 00",
	  TP_DSA_CONF_F_CPU_PORT, 10, 0 },
	{ "rtl4a", 3, 0, 0, 60, "88 99 a0 08", 0, 0, 0 },
	{ "rtl8_4", 3, 0, 0, 0, "88 99 04 00 00 20 00 08", 0, 0, 0 },
	{ "rtl8_4t", 10, 0, 0, 0, "88 99 04 00 00 20 04 00", 0, 0, 0 },
	{ "a5psw", 3, 0, 0, 60, "e0 01 00 01 00 00 00 08", 0, 0, 0 },
	{ "yt921x", 3, 0, 5, 0, "99 88 00 00 05 80 80 08", 0, 0, 0 },
	{ "gsw1xx", 3, 0, 0, 0, "88 c3 90 08 00 00 00 00", 0, 0, 0 },
	{ "mxl862xx", 3, 0, 0, 0, "88 c3 00 00 00 0a 00 09", TP_DSA_CONF_F_CPU_PORT, 9, 0 },
	{ "nxp_netc", 3, 1, 2, 0, "fd 3a 10 09 19 00", 0, 0, 0 },
	{ "ocelot-8021q", 3, 0, 3, 0, "81 00 6c 03", 0, 0, 0 },
	{ "vsc73xx-8021q", 3, 1, 0, 0, "81 00 0c 43", 0, 0, 0 },
	{ "sja1105", 3, 0, 0, 0, "da db 0c 03", 0, 0, 0 },
	{ "sja1110", 10, 2, 0, 0, "da db 0c 8a", 0, 0, 0 },
};

static void
test_tx_cases(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(tx_cases) / sizeof(tx_cases[0]); i++) {
		const struct tx_case *tc = &tx_cases[i];
		const struct tp_dsa_tagger *t = tagger(tc->tagger);
		struct tp_dsa_conf c = {
			.flags = TP_DSA_CONF_F_TX_PORT | tc->flags,
			.tx_port = tc->port, .tx_device = tc->device, .tx_prio = tc->prio,
			.cpu_port = tc->cpu_port, .tx_vid = tc->tx_vid,
		};
		struct tp_dsa_stats st = { 0 };
		uint8_t tag[32], padded[128], exp[160];
		size_t tl = tp_test_hex(tc->tag, tag, sizeof(tag));
		size_t pl = txf_len, el;
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, txf, (uint32_t)txf_len);

		fprintf(stderr, "tx case %u: %s port %u\n", i, tc->tagger, tc->port);
		memcpy(padded, txf, txf_len);
		if (tc->pad > pl) {
			memset(padded + pl, 0, tc->pad - pl);
			pl = tc->pad;
		}
		el = place(t, padded, pl, tag, tl, exp);
		assert_int_equal(tp_dsa_insert_burst(t, &m, 1, &c, NULL, &st), 1);
		tp_test_assert_mbuf_bytes(m, exp, (uint32_t)el);
		assert_int_equal(t->position == TP_DSA_POS_NONE ? 0 : t->tx_pad, tc->pad);
		rte_pktmbuf_free(m);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* 802.1Q frames: dsa/edsa convert in place (§4.3: TCI 0xB064 -> 60 19 a0 64),
 * mtk overwrites the TPID. */
static void
test_tx_8021q_convert(void **state)
{
	static const struct {
		const char *tagger, *tpid_tci, *expect;
	} cases[] = {
		{ "dsa", "81 00 b0 64", "60 19 a0 64" },
		{ "edsa", "81 00 b0 64", "da da 00 00 60 19 a0 64" },
		{ "mtk", "81 00 b0 64", "01 08 b0 64" },
		{ "mtk", "88 a8 00 07", "02 08 00 07" },
		{ "brcm", "81 00 b0 64", "20 00 00 08 81 00 b0 64" },
	};
	/* 10 more payload bytes so no tagger pads (mtk 60, brcm 64). */
	static const uint8_t extra[10] = { 0xee, 0xee, 0xee, 0xee, 0xee,
					   0xee, 0xee, 0xee, 0xee, 0xee };
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_dsa_conf c = { .flags = TP_DSA_CONF_F_TX_PORT, .tx_port = 3 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tp_dsa_tagger *t = tagger(cases[i].tagger);
		struct tp_dsa_stats st = { 0 };
		uint8_t in[128], exp[128], v[8], e[16];
		size_t vl = tp_test_hex(cases[i].tpid_tci, v, sizeof(v));
		size_t el = tp_test_hex(cases[i].expect, e, sizeof(e));
		struct rte_mbuf *m;

		memcpy(in, txf, 12);
		memcpy(in + 12, v, vl);
		memcpy(in + 12 + vl, txf + 12, txf_len - 12);
		memcpy(in + txf_len + vl, extra, sizeof(extra));
		memcpy(exp, txf, 12);
		memcpy(exp + 12, e, el);
		memcpy(exp + 12 + el, txf + 12, txf_len - 12);
		memcpy(exp + txf_len + el, extra, sizeof(extra));
		m = tp_test_mbuf_from_bytes(mp, in, (uint32_t)(txf_len + vl + sizeof(extra)));
		assert_int_equal(tp_dsa_insert_burst(t, &m, 1, &c, NULL, &st), 1);
		tp_test_assert_mbuf_bytes(m, exp, (uint32_t)(txf_len + el + sizeof(extra)));
		rte_pktmbuf_free(m);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Insert takes port/device/prio from a valid meta when no explicit port. */
static void
test_tx_from_meta(void **state)
{
	const struct tp_dsa_tagger *t = tagger("dsa");
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_dsa_stats st = { 0 };
	uint8_t f[128], exp[128];
	size_t len = place(t, rxf, rxf_len, (const uint8_t[]){ 0xc2, 0x28, 0, 0 }, 4, f);
	struct rte_mbuf *m[2], *drops[2];

	(void)state;
	m[0] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	m[1] = tp_test_mbuf_from_bytes(mp, rxf, (uint32_t)rxf_len);
	assert_int_equal(tp_dsa_strip_burst(tagger("none"), &m[1], 1, NULL, NULL, &st), 1);
	assert_int_equal(tp_dsa_strip_burst(t, m, 1, NULL, NULL, &st), 1);
	assert_int_equal(tp_dsa_meta(m[0])->port, 5);
	assert_int_equal(tp_dsa_meta(m[0])->device, 2);
	assert_int_equal(tp_dsa_meta(m[1])->flags, 0);
	memset(&st, 0, sizeof(st));
	assert_int_equal(tp_dsa_insert_burst(t, m, 2, NULL, drops, &st), 1);
	place(t, rxf, rxf_len, (const uint8_t[]){ 0x42, 0x28, 0, 0 }, 4, exp);
	tp_test_assert_mbuf_bytes(m[0], exp, (uint32_t)len);
	assert_int_equal(st.drop[TP_DSA_DROP_NO_DEST], 1);
	rte_pktmbuf_free(m[0]);
	rte_pktmbuf_free(drops[0]);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- round trips: strip(insert(f, port)) == f, switch-side decode, for
 * single-segment and chained (20-byte segments) mbufs ---- */

static size_t
test_frame(uint8_t *out, int vlan, size_t len)
{
	size_t i, off = 12;

	memcpy(out, txf, 12);
	if (vlan) {
		out[off++] = 0x81;
		out[off++] = 0x00;
		out[off++] = 0x30;
		out[off++] = 0x2a;
	}
	memcpy(out + off, txf + 12, txf_len - 12);
	off += txf_len - 12;
	for (i = off; i < len; i++)
		out[i] = (uint8_t)(i * 7);
	return len > off ? len : off;
}

/* Insert into a frame that asks the NIC to segment it (TSO): the NIC
 * finds the IP header at l2_len, so after the tag went in the bytes there
 * are still the IP header's, for every tagger (tail tags leave l2_len as
 * it was); a frame asking for no offload keeps its l2_len. */
static void
test_tx_l2_len(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64), total = 0;

	(void)state;
	for (unsigned int i = 0; i < n; i++) {
		const struct tp_dsa_tagger *t = all[i];

		if (t->position == TP_DSA_POS_NONE)
			continue;
		for (unsigned int v = 0; v < 4; v++) {   /* bit 0: 802.1Q; bit 1: no offload */
			struct tp_dsa_conf c = {
				.flags = TP_DSA_CONF_F_TX_PORT | TP_DSA_CONF_F_CPU_PORT,
				.cpu_port = 9,
			};
			struct tp_dsa_stats st = { 0 };
			uint8_t f[128], got[160];
			size_t len = test_frame(f, (int)(v & 1), 80);
			struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
			uint8_t l2 = (v & 1) ? 18 : 14;

			m->ol_flags = (v & 2) ? 0 : RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
						    RTE_MBUF_F_TX_IP_CKSUM;
			m->l2_len = l2;
			assert_int_equal(tp_dsa_insert_burst(t, &m, 1, &c, NULL, &st), 1);
			assert_true(tp_test_mbuf_to_bytes(m, got, sizeof(got)) >= len);
			if (v & 2) {
				assert_int_equal(m->l2_len, l2);
			} else if (memcmp(got + m->l2_len, f + l2, 20) != 0) {
				fprintf(stderr, "%s vlan %u: l2_len %u is not the IP header\n",
					t->name, v & 1, m->l2_len);
				fail();
			}
			rte_pktmbuf_free(m);
			total++;
		}
	}
	assert_true(total >= 4 * 20);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

static void
test_roundtrip_all(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64), i, total = 0;

	(void)state;
	for (i = 0; i < n; i++) {
		const struct tp_dsa_tagger *t = all[i];
		unsigned int port, vlan, dev;

		if (t->position == TP_DSA_POS_NONE)
			continue;
		for (vlan = 0; vlan < 4; vlan++)  /* bit 0: 802.1Q inner; bit 1: 20-byte segments */
		for (dev = 0; dev < t->devices; dev += (t->devices > 2 ? t->devices - 1 : 1))
		for (port = 0; port < t->tx_ports; port++) {
			struct tp_dsa_conf c = {
				.flags = TP_DSA_CONF_F_TX_PORT | TP_DSA_CONF_F_CPU_PORT,
				.tx_port = (uint8_t)port, .tx_device = (uint8_t)dev,
				.tx_prio = (uint8_t)(port & 3), .cpu_port = 9,
			};
			struct tp_dsa_stats st = { 0 };
			uint8_t f[128];
			size_t len = test_frame(f, (int)(vlan & 1), 80);
			struct rte_mbuf *m = (vlan & 2) ?
				tp_test_mbuf_chain_from_bytes(mp, f, (uint32_t)len, 20) :
				tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
			const struct tp_dsa_meta *md;

			assert_int_equal(tp_dsa_insert_burst(t, &m, 1, &c, NULL, &st), 1);
			c.flags |= TP_DSA_CONF_F_SWITCH_SIDE;
			if (tp_dsa_strip_burst(t, &m, 1, &c, NULL, &st) != 1) {
				fprintf(stderr, "%s port %u dev %u vlan %u dropped\n",
					t->name, port, dev, vlan);
				fail();
			}
			{
				uint8_t got[160];

				if (tp_test_mbuf_to_bytes(m, got, sizeof(got)) != len ||
				    memcmp(got, f, len) != 0)
					fprintf(stderr, "%s port %u dev %u vlan %u differs\n",
						t->name, port, dev, vlan);
			}
			tp_test_assert_mbuf_bytes(m, f, (uint32_t)len);
			md = tp_dsa_meta(m);
			assert_int_equal(md->port, port);
			assert_int_equal(md->device, dev);
			assert_int_equal(md->flags & (TP_DSA_META_F_VALID | TP_DSA_META_F_SWITCH_SIDE),
					 TP_DSA_META_F_VALID | TP_DSA_META_F_SWITCH_SIDE);
			assert_int_equal(md->frame_type, TP_DSA_FT_FROM_CPU);
			assert_int_equal(md->proto, t->proto);
			rte_pktmbuf_free(m);
			total++;
		}
	}
	fprintf(stderr, "%u round trips\n", total);
	assert_true(total > 2000);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Short frames come back padded to tx_pad (the kernel pads before tagging). */
static void
test_roundtrip_padding(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64), i, padded = 0;

	(void)state;
	for (i = 0; i < n; i++) {
		const struct tp_dsa_tagger *t = all[i];
		struct tp_dsa_conf c = {
			.flags = TP_DSA_CONF_F_TX_PORT | TP_DSA_CONF_F_CPU_PORT, .tx_port = 1,
			.cpu_port = 9,
		};
		struct tp_dsa_stats st = { 0 };
		uint8_t exp[128];
		size_t el = txf_len;
		struct rte_mbuf *m;

		if (t->position == TP_DSA_POS_NONE)
			continue;
		memcpy(exp, txf, txf_len);
		if (t->tx_pad > el) {
			memset(exp + el, 0, t->tx_pad - el);
			el = t->tx_pad;
			padded++;
		}
		m = tp_test_mbuf_from_bytes(mp, txf, (uint32_t)txf_len);
		assert_int_equal(tp_dsa_insert_burst(t, &m, 1, &c, NULL, &st), 1);
		c.flags |= TP_DSA_CONF_F_SWITCH_SIDE;
		assert_int_equal(tp_dsa_strip_burst(t, &m, 1, &c, NULL, &st), 1);
		tp_test_assert_mbuf_bytes(m, exp, (uint32_t)el);
		rte_pktmbuf_free(m);
	}
	/* brcm, brcm-prepend (64), brcm-legacy (66), trailer, mtk, rtl4a, a5psw (60) */
	assert_int_equal(padded, 7);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* ---- bad input ---- */

/* Every length shorter than tag + Ethernet header is a too_short drop. */
static void
test_too_short_all(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64), i, cnt = 0;
	uint8_t f[64];

	(void)state;
	memset(f, 0xff, sizeof(f));
	for (i = 0; i < n; i++) {
		const struct tp_dsa_tagger *t = all[i];
		struct tp_dsa_stats st = { 0 };
		unsigned int len;

		if (t->position == TP_DSA_POS_NONE)
			continue;
		for (len = 0; len < (unsigned int)t->rx_len + 14; len++) {
			struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, len);

			if (tp_dsa_strip_burst(t, &m, 1, NULL, NULL, &st) != 0) {
				fprintf(stderr, "%s: %u bytes kept\n", t->name, len);
				fail();
			}
			cnt++;
		}
		assert_int_equal(st.drop[TP_DSA_DROP_TOO_SHORT], t->rx_len + 14);
		assert_int_equal(st.out, 0);
	}
	assert_true(cnt > 500);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Tags split over segments are refused; tags inside their segment work. */
static void
test_segmented(void **state)
{
	static const struct {
		const char *tagger, *tag;
		uint16_t seg;
		int result;
	} cases[] = {
		{ "dsa", "c0 18 00 00", 14, TP_DSA_DROP_SEGMENTED },
		{ "dsa", "c0 18 00 00", 18, KEPT },
		{ "edsa", "da da 00 00 c0 18 00 00", 20, TP_DSA_DROP_SEGMENTED },
		{ "ocelot", "88 80 00 0a 00 00 00 00 00 00 00 00 00 00 18 00 00 04 00 64", 30,
		  TP_DSA_DROP_SEGMENTED },
		{ "ocelot", "88 80 00 0a 00 00 00 00 00 00 00 00 00 00 18 00 00 04 00 64", 34, KEPT },
		/* 58 bytes: 28 + 28 + 2, the trailer's last 2 bytes alone */
		{ "trailer", "80 03 00 00", 28, TP_DSA_DROP_SEGMENTED },
		{ "trailer", "80 03 00 00", 27, KEPT },    /* 27 + 27 + 4 */
		{ "rtl8_4t", "88 99 04 00 00 00 00 03", 30, TP_DSA_DROP_SEGMENTED }, /* 62 = 30+30+2 */
		{ "rtl8_4t", "88 99 04 00 00 00 00 03", 31, KEPT },
		{ "ksz9477", "11 22 33 44 83", 29, TP_DSA_DROP_SEGMENTED },
		{ "ksz9477", "11 22 33 44 83", 59, KEPT },
	};
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tp_dsa_tagger *t = tagger(cases[i].tagger);
		struct tp_dsa_stats st = { 0 };
		uint8_t tag[32], f[160];
		size_t tl = tp_test_hex(cases[i].tag, tag, sizeof(tag));
		size_t len = place(t, rxf, rxf_len, tag, tl, f);
		struct rte_mbuf *m = tp_test_mbuf_chain_from_bytes(mp, f, (uint32_t)len,
								  cases[i].seg);
		uint16_t k;

		fprintf(stderr, "segmented case %u: %s seg %u (%u segs, last %u)\n", i,
			cases[i].tagger, cases[i].seg, m->nb_segs,
			rte_pktmbuf_lastseg(m)->data_len);
		k = tp_dsa_strip_burst(t, &m, 1, NULL, NULL, &st);
		if (cases[i].result == KEPT) {
			assert_int_equal(k, 1);
			tp_test_assert_mbuf_bytes(m, rxf, (uint32_t)rxf_len);
			assert_int_equal(tp_dsa_meta(m)->port, 3);
			rte_pktmbuf_free(m);
		} else {
			assert_int_equal(k, 0);
			assert_int_equal(st.drop[cases[i].result], 1);
		}
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Configured ranges, burst compaction and the caller's drop array. */
static void
test_ranges_and_burst(void **state)
{
	const struct tp_dsa_tagger *t = tagger("dsa");
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_dsa_conf c = { .n_ports = 4, .n_devices = 2, .flags = TP_DSA_CONF_F_NO_TRUNK };
	static const char *const tags[] = {
		"c0 18 00 00", /* port 3 dev 0: kept */
		"c0 20 00 00", /* port 4: port_range */
		"c2 08 00 00", /* dev 2: device_range */
		"c1 0c 00 00", /* trunk: refused by conf */
		"00 10 00 00", /* TO_CPU port 2 dev 0: kept */
		"40 18 00 00", /* FROM_CPU: bad_type */
	};
	struct rte_mbuf *m[6], *orig[6], *drops[6];
	struct tp_dsa_stats st = { 0 };
	uint8_t why[6];
	unsigned int i;

	(void)state;
	for (i = 0; i < 6; i++) {
		uint8_t tag[4], f[128];
		size_t len = place(t, rxf, rxf_len, tag, tp_test_hex(tags[i], tag, 4), f);

		m[i] = orig[i] = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
	}
	memset(why, 0xFF, sizeof(why));
	assert_int_equal(tp_dsa_strip_burst_reasons(t, m, 6, &c, drops, why, &st), 2);
	/* Each drop's own reason, next to it (and nothing written past). */
	assert_int_equal(why[0], TP_DSA_DROP_PORT_RANGE);
	assert_int_equal(why[1], TP_DSA_DROP_DEVICE_RANGE);
	assert_int_equal(why[2], TP_DSA_DROP_TRUNK);
	assert_int_equal(why[3], TP_DSA_DROP_BAD_TYPE);
	assert_int_equal(why[4], 0xFF);
	assert_ptr_equal(m[0], orig[0]);
	assert_ptr_equal(m[1], orig[4]);
	assert_int_equal(tp_dsa_meta(m[1])->port, 2);
	assert_ptr_equal(drops[0], orig[1]);
	assert_ptr_equal(drops[1], orig[2]);
	assert_ptr_equal(drops[2], orig[3]);
	assert_ptr_equal(drops[3], orig[5]);
	assert_int_equal(st.drop[TP_DSA_DROP_PORT_RANGE], 1);
	assert_int_equal(st.drop[TP_DSA_DROP_DEVICE_RANGE], 1);
	assert_int_equal(st.drop[TP_DSA_DROP_TRUNK], 1);
	assert_int_equal(st.drop[TP_DSA_DROP_BAD_TYPE], 1);
	assert_int_equal(st.in, 6);
	assert_int_equal(st.out, 2);
	rte_pktmbuf_free_bulk(drops, 4);

	/* TX: port beyond the tag, no CPU port for ocelot, no head/tailroom. */
	memset(&st, 0, sizeof(st));
	c = (struct tp_dsa_conf){ .flags = TP_DSA_CONF_F_TX_PORT, .tx_port = 9 };
	assert_int_equal(tp_dsa_insert_burst(tagger("brcm"), m, 1, &c, drops, &st), 0);
	assert_int_equal(st.drop[TP_DSA_DROP_PORT_RANGE], 1);
	c.tx_port = 1;
	assert_int_equal(tp_dsa_insert_burst_reasons(tagger("ocelot"), &drops[0], 1, &c,
						     &drops[1], why, &st), 0);
	assert_int_equal(st.drop[TP_DSA_DROP_NO_CONFIG], 1);
	assert_int_equal(why[0], TP_DSA_DROP_NO_CONFIG);
	rte_pktmbuf_free(drops[1]);
	rte_pktmbuf_free(m[1]);
	{
		struct rte_mbuf *x = rte_pktmbuf_alloc(mp);

		x->data_off = 2; /* 2 bytes of headroom */
		memcpy(rte_pktmbuf_append(x, (uint16_t)txf_len), txf, txf_len);
		assert_int_equal(tp_dsa_insert_burst(tagger("edsa"), &x, 1, &c, NULL, &st), 0);
		assert_int_equal(st.drop[TP_DSA_DROP_NO_HEADROOM], 1);
		x = rte_pktmbuf_alloc(mp);
		x->data_off = 0; /* no tailroom left after the frame */
		x->data_len = x->pkt_len = x->buf_len;
		memcpy(rte_pktmbuf_mtod(x, uint8_t *), txf, txf_len);
		assert_int_equal(tp_dsa_insert_burst(tagger("trailer"), &x, 1, &c, NULL, &st), 0);
		assert_int_equal(st.drop[TP_DSA_DROP_NO_TAILROOM], 1);
		x = tp_test_mbuf_from_bytes(mp, txf, 13);
		assert_int_equal(tp_dsa_insert_burst(tagger("ksz8795"), &x, 1, &c, NULL, &st), 0);
		assert_int_equal(st.drop[TP_DSA_DROP_TOO_SHORT], 1);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* A tag_8021q / lan9303 tag the NIC stripped into vlan_tci is decoded. */
static void
test_nic_stripped_8021q(void **state)
{
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_dsa_stats st = { 0 };
	struct rte_mbuf *m[3];
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		m[i] = tp_test_mbuf_from_bytes(mp, rxf, (uint32_t)rxf_len);
		m[i]->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	}
	m[0]->vlan_tci = 0x6C43; /* prio 3, switch 1, port 3 */
	m[1]->vlan_tci = 0x0064; /* VID 100: a user VLAN, stays in vlan_tci */
	assert_int_equal(tp_dsa_strip_burst(tagger("sja1105"), m, 2, NULL, NULL, &st), 2);
	tp_test_assert_mbuf_bytes(m[0], rxf, (uint32_t)rxf_len);
	assert_int_equal(m[0]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED, 0);
	assert_int_equal(tp_dsa_meta(m[0])->port, 3);
	assert_int_equal(tp_dsa_meta(m[0])->device, 1);
	assert_int_equal(tp_dsa_meta(m[0])->prio, 3);
	/* A user VLAN goes back into the frame, for lib/vlan to strip. */
	{
		uint8_t exp[128];

		memcpy(exp, rxf, 12);
		memcpy(exp + 12, (const uint8_t[]){ 0x81, 0x00, 0x00, 0x64 }, 4);
		memcpy(exp + 16, rxf + 12, rxf_len - 12);
		tp_test_assert_mbuf_bytes(m[1], exp, (uint32_t)rxf_len + 4);
	}
	assert_int_equal(m[1]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED, 0);
	assert_int_equal(tp_dsa_meta(m[1])->flags, 0);
	assert_int_equal(st.passed, 1);
	m[2]->vlan_tci = 0x0012;
	assert_int_equal(tp_dsa_strip_burst(tagger("lan9303"), &m[2], 1, NULL, NULL, &st), 1);
	tp_test_assert_mbuf_bytes(m[2], rxf, (uint32_t)rxf_len);
	assert_int_equal(tp_dsa_meta(m[2])->port, 2);
	assert_int_equal(tp_dsa_meta(m[2])->frame_type, TP_DSA_FT_TO_CPU);
	rte_pktmbuf_free_bulk(m, 3);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* tag_8021q bridge VIDs (VBID != 0) resolved by explicit configuration. */
static void
test_vbid_map(void **state)
{
	static const struct {
		const char *tag;
		int port;          /* -1: dropped bridge_vid */
	} cases[] = {
		{ "81 00 0c 10", 5 },    /* bridge 1 (§1.3: 0xC10) */
		{ "81 00 6e 00", 9 },    /* bridge 4 (0xE00), PCP 3 */
		{ "81 00 0c 20", -1 },   /* bridge 2: not mapped */
		{ "81 00 0c 03", 3 },    /* standalone VID still decodes */
	};
	const struct tp_dsa_tagger *t = tagger("ocelot-8021q");
	unsigned int start = tp_test_pool_in_use(mp);
	struct tp_dsa_conf c = { .flags = TP_DSA_CONF_F_VBID_MAP };
	unsigned int i;

	(void)state;
	memset(c.vbid_port, 0xFF, sizeof(c.vbid_port));
	c.vbid_port[1] = 5;
	c.vbid_port[4] = 9;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tp_dsa_stats st = { 0 };
		uint8_t tag[4], f[128];
		size_t len = place(t, rxf, rxf_len, tag, tp_test_hex(cases[i].tag, tag, 4), f);
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);
		uint16_t k = tp_dsa_strip_burst(t, &m, 1, &c, NULL, &st);

		if (cases[i].port < 0) {
			assert_int_equal(k, 0);
			assert_int_equal(st.drop[TP_DSA_DROP_BRIDGE_VID], 1);
			continue;
		}
		assert_int_equal(k, 1);
		tp_test_assert_mbuf_bytes(m, rxf, (uint32_t)rxf_len);
		assert_int_equal(tp_dsa_meta(m)->port, cases[i].port);
		rte_pktmbuf_free(m);
	}
	/* Without the flag a bridge VID is dropped. */
	{
		struct tp_dsa_stats st = { 0 };
		uint8_t tag[4], f[128];
		size_t len = place(t, rxf, rxf_len, tag, tp_test_hex("81 00 0c 10", tag, 4), f);
		struct rte_mbuf *m = tp_test_mbuf_from_bytes(mp, f, (uint32_t)len);

		assert_int_equal(tp_dsa_strip_burst(t, &m, 1, NULL, NULL, &st), 0);
		assert_int_equal(st.drop[TP_DSA_DROP_BRIDGE_VID], 1);
	}
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* Random frames (deterministic xorshift), random lengths and segment
 * sizes, through every tagger in both decode directions and through VLAN
 * strip: burst accounting holds (in = kept + dropped, per-reason sum),
 * kept mbufs stay consistent, the pool comes back. */
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void
check_chain(const struct rte_mbuf *m)
{
	const struct rte_mbuf *s;
	uint32_t sum = 0;
	unsigned int segs = 0;

	for (s = m; s != NULL; s = s->next) {
		sum += s->data_len;
		segs++;
		assert_true(s->data_off + s->data_len <= s->buf_len);
	}
	assert_int_equal(sum, m->pkt_len);
	assert_int_equal(segs, m->nb_segs);
}

static void
test_fuzz(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64), i, round;
	uint64_t kept_total = 0, dropped_total = 0;

	(void)state;
	for (round = 0; round < 40; round++) {
		for (i = 0; i < n; i++) {
			const struct tp_dsa_tagger *t = all[i];
			struct tp_dsa_conf c = { .flags = (round & 1) ? TP_DSA_CONF_F_SWITCH_SIDE : 0,
						 .n_ports = (uint16_t)(round % 5 == 0 ? 4 : 0) };
			struct tp_dsa_stats st = { 0 };
			struct tp_vlan_stats vs = { 0 };
			struct rte_mbuf *m[32], *drops[32];
			uint64_t sum = 0;
			unsigned int j, r, k, k2;

			for (j = 0; j < 32; j++) {
				uint8_t f[96];
				uint32_t len = rnd() % sizeof(f), b;

				for (b = 0; b < len; b++)
					f[b] = (uint8_t)rnd();
				/* Often a plausible tag/VLAN start, to get past the first checks. */
				if (len > 16 && (rnd() & 1)) {
					f[12] = (uint8_t)(rnd() & 1 ? 0x81 : 0xda);
					f[13] = (uint8_t)(rnd() & 1 ? 0x00 : 0xdb);
				}
				if (rnd() % 3 == 0 && len > 0)
					m[j] = tp_test_mbuf_chain_from_bytes(mp, f, len,
						(uint16_t)(1 + rnd() % len));
				else
					m[j] = tp_test_mbuf_from_bytes(mp, f, len);
			}
			k = tp_dsa_strip_burst(t, m, 32, &c, drops, &st);
			assert_int_equal(st.in, 32);
			assert_int_equal(st.out, k);
			for (r = 0; r < TP_DSA_DROP_MAX; r++)
				sum += st.drop[r];
			assert_int_equal(sum, 32 - k);
			for (j = 0; j < k; j++)
				check_chain(m[j]);
			k2 = tp_vlan_strip_burst(NULL, m, (uint16_t)k, drops + (32 - k), &vs);
			assert_int_equal(vs.in, k);
			assert_int_equal(vs.out, k2);
			assert_int_equal(vs.drop[TP_VLAN_DROP_TOO_SHORT] +
					 vs.drop[TP_VLAN_DROP_SEGMENTED], k - k2);
			assert_int_equal(vs.single + vs.qinq + vs.nic + vs.untagged, k2);
			for (j = 0; j < k2; j++)
				check_chain(m[j]);
			kept_total += k2;
			dropped_total += 32 - k2;
			rte_pktmbuf_free_bulk(m, k2);
			rte_pktmbuf_free_bulk(drops, 32 - k2);
		}
	}
	fprintf(stderr, "fuzz: %lu kept, %lu dropped\n", (unsigned long)kept_total,
		(unsigned long)dropped_total);
	assert_true(kept_total > 1000 && dropped_total > 1000);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

/* No read past the frame: each frame ends exactly where an inaccessible
 * page starts (an external mbuf buffer in front of a PROT_NONE page), and
 * every tagger (both directions) and VLAN strip run over all lengths 0..80
 * with random and tag-like bytes. A read past the end would fault. */
static void
ext_free(void *addr, void *opaque)
{
	(void)addr;
	(void)opaque;
}

static void
test_guard_page(void **state)
{
	const struct tp_dsa_tagger *all[64];
	unsigned int start = tp_test_pool_in_use(mp);
	unsigned int n = tp_dsa_tagger_list(all, 64), i, len, side, runs = 0;
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *area = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rte_mbuf_ext_shared_info shinfo = { .free_cb = ext_free };

	(void)state;
	assert_true(area != MAP_FAILED);
	assert_int_equal(mprotect(area + pg, (size_t)pg, PROT_NONE), 0);
	for (i = 0; i < n; i++) {
		for (side = 0; side < 2; side++) {
			struct tp_dsa_conf c = { .flags = side ? TP_DSA_CONF_F_SWITCH_SIDE : 0 };

			for (len = 0; len <= 80; len++) {
				struct tp_dsa_stats st = { 0 };
				struct tp_vlan_stats vs = { 0 };
				struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
				uint8_t *f = area + pg - len;
				unsigned int b;

				assert_non_null(m);
				for (b = 0; b < len; b++)
					f[b] = (uint8_t)(b == 12 ? 0x81 : b == 13 ? 0x00 :
							 (b * 37 + len) ^ (i << 3));
				rte_mbuf_ext_refcnt_set(&shinfo, 1);
				rte_pktmbuf_attach_extbuf(m, area, rte_mem_virt2iova(area),
							  (uint16_t)pg, &shinfo);
				m->data_off = (uint16_t)(pg - len);
				m->data_len = (uint16_t)len;
				m->pkt_len = len;
				if (tp_dsa_strip_burst(all[i], &m, 1, &c, NULL, &st) == 1) {
					tp_vlan_strip_burst(NULL, &m, 1, NULL, &vs);
					if (vs.out == 1)
						rte_pktmbuf_free(m);
				}
				runs++;
			}
		}
	}
	munmap(area, (size_t)pg * 2);
	assert_int_equal(runs, n * 2 * 81);
	TP_TEST_ASSERT_POOL_BACK(mp, start);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unregistered_meta),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_conf_check),
		cmocka_unit_test(test_rx_cases),
		cmocka_unit_test(test_rx_every_port),
		cmocka_unit_test(test_tx_cases),
		cmocka_unit_test(test_tx_8021q_convert),
		cmocka_unit_test(test_tx_from_meta),
		cmocka_unit_test(test_tx_l2_len),
		cmocka_unit_test(test_roundtrip_all),
		cmocka_unit_test(test_roundtrip_padding),
		cmocka_unit_test(test_too_short_all),
		cmocka_unit_test(test_segmented),
		cmocka_unit_test(test_ranges_and_burst),
		cmocka_unit_test(test_nic_stripped_8021q),
		cmocka_unit_test(test_vbid_map),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_guard_page),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
