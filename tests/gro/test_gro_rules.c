/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel GRO selftest's cases (docs/ref/gro.md §3.2) through tp_gro, with the
 * exact expected payload lists, for IPv4 and IPv6, plus a few more rules of
 * §1.3 (the "x_" cases), in every variant: plain, in-frame 802.1Q, in-frame
 * QinQ, stripped VLAN,
 * stripped QinQ, switch-port metadata, NIC RSS hash, NIC checksum verdicts.
 * Then the key tests: frames that would merge but come from two switch
 * ports, VLANs, MACs... must not merge.
 */
#include "tp_test.h"
#include "gro_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F4 1
#define F6 2

struct exp {
	int n;
	int v[8];
};

struct gro_case {
	const char *name;
	int fam;
	void (*build)(struct seq *s, int v6);
	struct exp e4, e6;
};

static struct rte_mempool *mp;

/* ---- builders, one per selftest case (§3.2) ---------------------------- */

static void b_data_same(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100);
}

static void b_data_lrg_sml(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 50);
}

static void b_data_lrg_1byte(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 1);       /* padded to 60 bytes, as on a wire */
}

static void b_data_sml_lrg(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 50);
	seq_add(s, v6, 50, 100);
}

static void b_data_burst(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100);
	seq_add(s, v6, 200, 100);
	s->flush_before[s->n - 1] = 1;   /* sleep 100 ms */
	seq_add(s, v6, 300, 100);
}

static void b_ack(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 0);
	seq_add(s, v6, 0, 0);
	seq_add(s, v6, 0, 0)->ack = 101;
}

static void flags5(struct seq *s, int v6, int which, uint8_t fl)
{
	int i;

	for (i = 0; i < 5; i++) {
		struct tpkt *t = seq_add(s, v6, (uint32_t)i * 100, 100);

		if (i == which || (fl == 0x80 && i == 1))
			t->flags |= fl;
	}
}

static void b_flags_psh(struct seq *s, int v6) { flags5(s, v6, 2, 0x08); }
static void b_flags_cwr(struct seq *s, int v6) { flags5(s, v6, 2, 0x80); }

static void flags_ctl(struct seq *s, int v6, uint8_t fl)
{
	struct tpkt *t;

	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100);
	t = seq_add(s, v6, 0, 0);
	t->flags |= fl;
	seq_add(s, v6, 300, 100);
	seq_add(s, v6, 400, 100);
}

static void b_flags_syn(struct seq *s, int v6) { flags_ctl(s, v6, 0x02); }
static void b_flags_rst(struct seq *s, int v6) { flags_ctl(s, v6, 0x04); }
static void b_flags_urg(struct seq *s, int v6) { flags_ctl(s, v6, 0x20); }

static void b_tcp_csum(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->bad_tcp_csum = 1;
}

static void b_tcp_seq(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 101, 100);
}

static void ts_opt(struct tpkt *t, const char *layout, uint32_t val)
{
	int i = 0;

	for (; *layout; layout++) {
		if (*layout == 'N') {
			t->opts[i++] = 1;
		} else {                      /* T: timestamp, TSecr 0 */
			t->opts[i++] = 8;
			t->opts[i++] = 10;
			t->opts[i++] = (uint8_t)(val >> 24);
			t->opts[i++] = (uint8_t)(val >> 16);
			t->opts[i++] = (uint8_t)(val >> 8);
			t->opts[i++] = (uint8_t)val;
			memset(t->opts + i, 0, 4);
			i += 4;
		}
	}
	t->optlen = (uint8_t)i;
}

static void b_tcp_ts(struct seq *s, int v6)
{
	ts_opt(seq_add(s, v6, 0, 100), "NNT", 0);
	ts_opt(seq_add(s, v6, 100, 100), "NNT", 0);
	ts_opt(seq_add(s, v6, 200, 100), "NNT", 100);
	ts_opt(seq_add(s, v6, 300, 100), "NTN", 100);
	ts_opt(seq_add(s, v6, 400, 100), "TNN", 100);
}

static void b_tcp_opt(struct seq *s, int v6)
{
	struct tpkt *t;

	ts_opt(seq_add(s, v6, 0, 100), "NNT", 0);
	ts_opt(seq_add(s, v6, 100, 100), "NNT", 0);
	t = seq_add(s, v6, 200, 100);
	t->optlen = 4;                   /* §3.2: zero for IPv4 */
	if (v6)
		memcpy(t->opts, "\x01\x03\x03\x07", 4);
}

static void b_ip_ecn(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->tos = 0x02;
}

static void b_ip_tos(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->tos = v6 ? 0xF0 : 0x01;
}

static void b_ip_csum(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->bad_ip_csum = 1;
	seq_add(s, v6, 200, 100);
}

static void b_ip_ttl(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->ttl = 7;
}

static void b_ip_opt(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->ipopt_len = 40;
	seq_add(s, v6, 200, 100);
}

static void b_ip_frag4(struct seq *s, int v6)
{
	struct tpkt *t;

	seq_add(s, v6, 0, 100);
	t = seq_add(s, v6, 100, 100);
	t->mf = 1;
	t->bad_tcp_csum = 1;             /* checksum over 200 B: wrong here */
}

static void ids(struct seq *s, int v6, int df, int n, const uint16_t *id)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tpkt *t = seq_add(s, v6, (uint32_t)i * 100, 100);

		t->df = df;
		t->ip_id = id[i];
	}
}

static void b_id_df1_inc(struct seq *s, int v6) { ids(s, v6, 1, 2, (const uint16_t[]){ 8, 9 }); }
static void b_id_df1_fixed(struct seq *s, int v6) { ids(s, v6, 1, 2, (const uint16_t[]){ 8, 8 }); }
static void b_id_df0_inc(struct seq *s, int v6) { ids(s, v6, 0, 2, (const uint16_t[]){ 8, 9 }); }
static void b_id_df0_fixed(struct seq *s, int v6) { ids(s, v6, 0, 2, (const uint16_t[]){ 8, 8 }); }
static void b_id_inc_fixed(struct seq *s, int v6) { ids(s, v6, 1, 3, (const uint16_t[]){ 8, 9, 9 }); }
static void b_id_fixed_inc(struct seq *s, int v6) { ids(s, v6, 1, 3, (const uint16_t[]){ 8, 8, 9 }); }

static void b_ip_frag6(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100);
	seq_add(s, v6, 200, 100)->frag6 = 1;
	s->flush_before[s->n - 1] = 1;   /* sleep 1 s */
	seq_add(s, v6, 300, 100);
}

static void b_v6ext_same(struct seq *s, int v6)
{
	struct tpkt *t;

	t = seq_add(s, v6, 0, 100);
	t->ext_type = 60;
	t = seq_add(s, v6, 100, 100);
	t->ext_type = 60;
}

static void b_v6ext_diff(struct seq *s, int v6)
{
	struct tpkt *t;

	t = seq_add(s, v6, 0, 100);
	t->ext_type = 60;
	t = seq_add(s, v6, 100, 100);
	t->ext_type = 60;
	t->ext_fill = 0x11;
}

/* §3.3 large cases: mss = 4096 - L3/L4 headers, N = 16 */
static void large(struct seq *s, int v6, int extra)
{
	uint16_t mss = v6 ? 4036 : 4056;
	uint16_t rem = (uint16_t)((v6 ? 65475 : 65495) % mss + extra);
	uint32_t i;

	for (i = 0; i < 16; i++)
		seq_add(s, v6, i * mss, mss);
	seq_add(s, v6, 16u * mss, rem);
	seq_add(s, v6, 17u * mss, rem);
}

static void b_large_max(struct seq *s, int v6) { large(s, v6, 0); }
static void b_large_rem(struct seq *s, int v6) { large(s, v6, 1); }

static void b_single(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
}

static void capacity(struct seq *s, int v6, int k)
{
	int f;

	for (f = 0; f < k; f++) {
		struct tpkt *t = seq_add(s, v6, 0, 200);

		t->sport = (uint16_t)(1500 + f);
		t->pay_char = (uint8_t)('a' + f % 26);
	}
	for (f = 0; f < k; f++) {
		struct tpkt *t = seq_add(s, v6, 200, 200);

		t->sport = (uint16_t)(1500 + f);
		t->pay_char = (uint8_t)('a' + f % 26);
		t->flags |= 0x08;
	}
}

static void b_capacity(struct seq *s, int v6) { capacity(s, v6, 8); }

/* ---- more rules of §1.3, each pinned by its own sequence (not in the
 * kernel selftest; expected lists derived from the rule) ------------------ */

static void b_x_ack(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->ack = 101;
}

static void b_x_window(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->window = 1000;
}

static void b_x_ece(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->flags |= 0x40;
}

static void b_x_short_then_more(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 50);          /* appended, then the aggregate ends */
	seq_add(s, v6, 150, 100);
}

static void b_x_hoplimit(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->ttl = 9;
}

static void b_x_df(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100)->df = 0;
}

static void b_x_id_wrap(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100)->ip_id = 0xFFFF;
	seq_add(s, v6, 100, 100)->ip_id = 0;
}

static void b_x_seq_wrap(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100)->seq = 0xFFFFFFC0u;
	seq_add(s, v6, 0, 100)->seq = 0x24u;   /* 0xFFFFFFC0 + 100 */
}

static void b_x_psh_first(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100)->flags |= 0x08;   /* nothing to join: not held */
	seq_add(s, v6, 100, 100);
	seq_add(s, v6, 200, 100);
}

static void b_x_pure_ack_between(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 0);           /* same flow, not held: ends the aggregate */
	seq_add(s, v6, 100, 100);
}

/* After a flush (a sleep point) a flow's next aggregate starts from the
 * segment that follows; each case makes that segment differ from the
 * aggregate just completed in one field, so a start that reused the old
 * aggregate's headers would merge wrongly. */
static void flush_pair(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100);
	seq_add(s, v6, 100, 100);
}

static void b_x_flush_psh(struct seq *s, int v6)
{
	flush_pair(s, v6);
	seq_add(s, v6, 200, 100)->flags |= 0x08;   /* not held: alone */
	s->flush_before[s->n - 1] = 1;
	seq_add(s, v6, 300, 100);
	seq_add(s, v6, 400, 100);
}

static void b_x_flush_ack(struct seq *s, int v6)
{
	flush_pair(s, v6);
	seq_add(s, v6, 200, 100)->ack = 101;
	s->flush_before[s->n - 1] = 1;
	seq_add(s, v6, 300, 100)->ack = 101;
}

static void b_x_flush_csum(struct seq *s, int v6)
{
	flush_pair(s, v6);
	seq_add(s, v6, 200, 100)->bad_tcp_csum = 1;
	s->flush_before[s->n - 1] = 1;
	seq_add(s, v6, 300, 100);
	seq_add(s, v6, 400, 100);
}

static void b_x_flush_ts(struct seq *s, int v6)
{
	ts_opt(seq_add(s, v6, 0, 100), "NNT", 0);
	ts_opt(seq_add(s, v6, 100, 100), "NNT", 0);
	ts_opt(seq_add(s, v6, 200, 100), "NNT", 100);
	s->flush_before[s->n - 1] = 1;
	ts_opt(seq_add(s, v6, 300, 100), "NNT", 100);
	ts_opt(seq_add(s, v6, 400, 100), "NNT", 0);   /* differs from the new head */
}

static void b_x_flush_short(struct seq *s, int v6)
{
	flush_pair(s, v6);
	seq_add(s, v6, 200, 50);
	s->flush_before[s->n - 1] = 1;
	seq_add(s, v6, 250, 100);
}

static void b_x_flush_id_fixed(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100)->ip_id = 1;
	seq_add(s, v6, 100, 100)->ip_id = 2;       /* incrementing */
	seq_add(s, v6, 200, 100)->ip_id = 7;
	s->flush_before[s->n - 1] = 1;
	seq_add(s, v6, 300, 100)->ip_id = 7;       /* fixed */
	seq_add(s, v6, 400, 100)->ip_id = 8;       /* neither: a new aggregate */
}

static void b_x_flush_id_inc(struct seq *s, int v6)
{
	seq_add(s, v6, 0, 100)->ip_id = 5;
	seq_add(s, v6, 100, 100)->ip_id = 5;       /* fixed */
	seq_add(s, v6, 200, 100)->ip_id = 9;
	s->flush_before[s->n - 1] = 1;
	seq_add(s, v6, 300, 100)->ip_id = 10;      /* incrementing */
	seq_add(s, v6, 400, 100)->ip_id = 10;      /* neither */
}

#define E(...) { sizeof((int[]){ __VA_ARGS__ }) / sizeof(int), { __VA_ARGS__ } }
#define NONE { 0, { 0 } }

static const struct gro_case cases[] = {
	{ "data_same", F4 | F6, b_data_same, E(200), E(200) },
	{ "data_lrg_sml", F4 | F6, b_data_lrg_sml, E(150), E(150) },
	{ "data_lrg_1byte", F4 | F6, b_data_lrg_1byte, E(101), E(101) },
	{ "data_sml_lrg", F4 | F6, b_data_sml_lrg, E(50, 100), E(50, 100) },
	{ "data_burst", F4 | F6, b_data_burst, E(200, 200), E(200, 200) },
	{ "ack", F4 | F6, b_ack, E(0, 0, 0), E(0, 0, 0) },
	{ "flags_psh", F4 | F6, b_flags_psh, E(300, 200), E(300, 200) },
	{ "flags_syn", F4 | F6, b_flags_syn, E(200, 0, 200), E(200, 0, 200) },
	{ "flags_rst", F4 | F6, b_flags_rst, E(200, 0, 200), E(200, 0, 200) },
	{ "flags_urg", F4 | F6, b_flags_urg, E(200, 0, 200), E(200, 0, 200) },
	{ "flags_cwr", F4 | F6, b_flags_cwr, E(100, 200, 200), E(100, 200, 200) },
	{ "tcp_csum", F4 | F6, b_tcp_csum, E(100, 100), E(100, 100) },
	{ "tcp_seq", F4 | F6, b_tcp_seq, E(100, 100), E(100, 100) },
	{ "tcp_ts", F4 | F6, b_tcp_ts, E(200, 100, 100, 100), E(200, 100, 100, 100) },
	{ "tcp_opt", F4 | F6, b_tcp_opt, E(200, 100), E(200, 100) },
	{ "ip_ecn", F4 | F6, b_ip_ecn, E(100, 100), E(100, 100) },
	{ "ip_tos", F4 | F6, b_ip_tos, E(100, 100), E(100, 100) },
	{ "ip_csum", F4, b_ip_csum, E(100, 100, 100), NONE },
	{ "ip_ttl", F4, b_ip_ttl, E(100, 100), NONE },
	{ "ip_opt", F4, b_ip_opt, E(100, 100, 100), NONE },
	{ "ip_frag4", F4, b_ip_frag4, E(100, 100), NONE },
	{ "ip_id_df1_inc", F4, b_id_df1_inc, E(200), NONE },
	{ "ip_id_df1_fixed", F4, b_id_df1_fixed, E(200), NONE },
	{ "ip_id_df0_inc", F4, b_id_df0_inc, E(200), NONE },
	{ "ip_id_df0_fixed", F4, b_id_df0_fixed, E(200), NONE },
	{ "ip_id_df1_inc_fixed", F4, b_id_inc_fixed, E(200, 100), NONE },
	{ "ip_id_df1_fixed_inc", F4, b_id_fixed_inc, E(200, 100), NONE },
	{ "ip_frag6", F6, b_ip_frag6, NONE, E(200, 100, 100) },
	{ "ip_v6ext_same", F6, b_v6ext_same, NONE, E(200) },
	{ "ip_v6ext_diff", F6, b_v6ext_diff, NONE, E(100, 100) },
	{ "large_max", F4 | F6, b_large_max, E(65495, 599), E(65475, 899) },
	{ "large_rem", F4 | F6, b_large_rem, E(64896, 600, 600), E(64576, 900, 900) },
	{ "single", F4 | F6, b_single, E(100), E(100) },
	{ "capacity", F4 | F6, b_capacity, E(400, 400, 400, 400, 400, 400, 400, 400),
	  E(400, 400, 400, 400, 400, 400, 400, 400) },
	{ "x_ack", F4 | F6, b_x_ack, E(100, 100), E(100, 100) },
	{ "x_window", F4 | F6, b_x_window, E(100, 100), E(100, 100) },
	{ "x_ece", F4 | F6, b_x_ece, E(100, 100), E(100, 100) },
	{ "x_short_then_more", F4 | F6, b_x_short_then_more, E(150, 100), E(150, 100) },
	{ "x_ttl_hoplimit", F4 | F6, b_x_hoplimit, E(100, 100), E(100, 100) },
	{ "x_df", F4, b_x_df, E(100, 100), NONE },
	{ "x_id_wrap", F4, b_x_id_wrap, E(200), NONE },
	{ "x_seq_wrap", F4 | F6, b_x_seq_wrap, E(200), E(200) },
	{ "x_psh_first", F4 | F6, b_x_psh_first, E(100, 200), E(100, 200) },
	{ "x_pure_ack_between", F4 | F6, b_x_pure_ack_between, E(100, 0, 100),
	  E(100, 0, 100) },
	{ "x_flush_psh", F4 | F6, b_x_flush_psh, E(200, 100, 200), E(200, 100, 200) },
	{ "x_flush_ack", F4 | F6, b_x_flush_ack, E(200, 200), E(200, 200) },
	{ "x_flush_csum", F4 | F6, b_x_flush_csum, E(200, 100, 200), E(200, 100, 200) },
	{ "x_flush_ts", F4 | F6, b_x_flush_ts, E(200, 200, 100), E(200, 200, 100) },
	{ "x_flush_short", F4 | F6, b_x_flush_short, E(200, 50, 100), E(200, 50, 100) },
	{ "x_flush_id_fixed", F4, b_x_flush_id_fixed, E(200, 200, 100), NONE },
	{ "x_flush_id_inc", F4, b_x_flush_id_inc, E(200, 200, 100), NONE },
};

static const char *const var_names[VAR_MAX] = {
	"plain", "vlan", "qinq", "vlan_stripped", "qinq_stripped", "switch_port",
	"rss", "nic_csum", "port_each",
};

struct case_state {
	const struct gro_case *c;
	int v6;
	enum gro_variant var;
};

static void
expect(const int *got, int n, const struct exp *e)
{
	int i;

	if (n != e->n) {
		fprintf(stderr, "got %d packets:", n);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %d", got[i]);
		fprintf(stderr, "; want %d\n", e->n);
	}
	assert_int_equal(n, e->n);
	for (i = 0; i < n; i++)
		assert_int_equal(got[i], e->v[i]);
}

static void
test_case(void **state)
{
	const struct case_state *cs = *state;
	static struct seq s;
	struct tp_gro_stats st;
	int got[64], n;

	s.n = 0;
	cs->c->build(&s, cs->v6);
	/* the selftest's terminator: FIN, seq offset 200, after a sleep */
	seq_add(&s, cs->v6, 200, 0)->flags = 0x11;
	s.flush_before[s.n - 1] = 1;
	seq_variant(&s, cs->var);
	n = seq_run(mp, &s, got, 64, &st);
	if (cs->var == VAR_PORT_EACH) {
		/* frames of different switch ports never merge: every data frame
		 * comes out alone (held ones at the flush, so order aside) */
		int want[64], k, i, j;

		assert_int_equal(st.merged_out, 0);
		for (k = 0; k < s.n - 1; k++)
			want[k] = s.p[k].paylen;
		assert_int_equal(n, k);
		for (i = 0; i < k; i++) {
			for (j = 0; j < n && got[j] != want[i]; j++)
				;
			assert_true(j < n);
			got[j] = -1;
		}
		return;
	}
	expect(got, n, cs->v6 ? &cs->c->e6 : &cs->c->e4);
	if (cs->var == VAR_NIC)
		assert_int_equal(st.csum_sw_ip + st.csum_sw_l4, 0);
	else if (!cs->v6 && strcmp(cs->c->name, "single") == 0)
		assert_int_equal(st.csum_sw_ip, 1);
}

/* Capacity with many flows: every flow one 400 B packet, in flow order. */
static void
test_capacity_many(void **state)
{
	static const int ks[] = { 64, 512, 1000 };
	static struct seq s;
	static int got[1100];
	struct tp_gro_stats st;
	unsigned int i, v6;
	int n, j;

	(void)state;
	for (v6 = 0; v6 < 2; v6++) {
		for (i = 0; i < RTE_DIM(ks); i++) {
			s.n = 0;
			capacity(&s, (int)v6, ks[i]);
			n = seq_run(mp, &s, got, 1100, &st);
			assert_int_equal(n, ks[i]);
			for (j = 0; j < n; j++)
				assert_int_equal(got[j], 400);
			assert_int_equal(st.flush[TP_GRO_FLUSH_PSH_FIN], (uint64_t)ks[i]);
			assert_int_equal(st.flush[TP_GRO_FLUSH_BUCKET_FULL], 0);
		}
	}
}

/* ---- key tests: two frames that would merge, but for one field ---------- */

struct pair_case {
	const char *name;
	void (*mod)(struct tpkt *t, struct mbmeta *mm, int second);
	int merge;   /* 1: the control, must merge */
};

static void m_none(struct tpkt *t, struct mbmeta *mm, int k) { (void)t; (void)mm; (void)k; }
static void m_port(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)t; mm->dsa_valid = 1; mm->dsa_port = (uint8_t)(1 + k); }
static void m_port_same(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)t; (void)k; mm->dsa_valid = 1; mm->dsa_port = 2; }
static void m_dev(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)t; mm->dsa_valid = 1; mm->dsa_port = 2; mm->dsa_dev = (uint8_t)k; }
static void m_port_valid(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)t; mm->dsa_valid = k; mm->dsa_port = 0; }
static void m_vid(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)mm; t->ntags = 1; t->tpid[0] = 0x8100; t->tci[0] = (uint16_t)(100 + k); }
static void m_pcp(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)mm; t->ntags = 1; t->tpid[0] = 0x8100; t->tci[0] = (uint16_t)(100 | (k << 13)); }
static void m_tpid(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)mm; t->ntags = 1; t->tpid[0] = k ? 0x88A8 : 0x8100; t->tci[0] = 100; }
static void m_qinq_inner(struct tpkt *t, struct mbmeta *mm, int k)
{
	(void)mm;
	t->ntags = 2;
	t->tpid[0] = 0x88A8;
	t->tci[0] = 200;
	t->tpid[1] = 0x8100;
	t->tci[1] = (uint16_t)(100 + k);
}
static void m_strip_vid(struct tpkt *t, struct mbmeta *mm, int k)
{
	(void)t;
	mm->ol = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	mm->vlan_tci = (uint16_t)(100 + k);
}
static void m_strip_vs_none(struct tpkt *t, struct mbmeta *mm, int k)
{
	(void)t;
	if (k)
		mm->ol = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	mm->vlan_tci = 0;
}
static void m_strip_vs_frame(struct tpkt *t, struct mbmeta *mm, int k)
{
	if (k) {
		mm->ol = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		mm->vlan_tci = 100;
	} else {
		t->ntags = 1;
		t->tpid[0] = 0x8100;
		t->tci[0] = 100;
	}
}
static void m_outer_strip(struct tpkt *t, struct mbmeta *mm, int k)
{
	(void)t;
	mm->ol = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED |
		 RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED;
	mm->vlan_tci = 100;
	mm->vlan_tci_outer = (uint16_t)(200 + k);
}
static void m_smac(struct tpkt *t, struct mbmeta *mm, int k) { (void)mm; t->src[5] = (uint8_t)(2 + k); }
static void m_dmac(struct tpkt *t, struct mbmeta *mm, int k) { (void)mm; t->dst[0] = (uint8_t)(0xaa + 2 * k); }
static void m_rss(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)t; mm->ol = RTE_MBUF_F_RX_RSS_HASH; mm->rss = 7u + (uint32_t)k; }
static void m_rss_same(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)t; (void)k; mm->ol = RTE_MBUF_F_RX_RSS_HASH; mm->rss = 7u; }
static void m_saddr(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)mm; t->saddr4 += (uint32_t)k; t->saddr6[15] = (uint8_t)(t->saddr6[15] + k); }
static void m_daddr(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)mm; t->daddr4 += (uint32_t)k; t->daddr6[0] = (uint8_t)(t->daddr6[0] + k); }
static void m_sport(struct tpkt *t, struct mbmeta *mm, int k) { (void)mm; t->sport = (uint16_t)(t->sport + k); }
static void m_dport(struct tpkt *t, struct mbmeta *mm, int k) { (void)mm; t->dport = (uint16_t)(t->dport + k); }
static void m_flowlabel(struct tpkt *t, struct mbmeta *mm, int k)
{ (void)mm; t->flow_label = (uint32_t)k; }

static const struct pair_case pairs[] = {
	{ "control", m_none, 1 },
	{ "switch_port", m_port, 0 },
	{ "switch_port_same", m_port_same, 1 },
	{ "switch_device", m_dev, 0 },
	{ "switch_tag_vs_none", m_port_valid, 0 },
	{ "vlan_vid", m_vid, 0 },
	{ "vlan_pcp", m_pcp, 0 },
	{ "vlan_tpid", m_tpid, 0 },
	{ "qinq_inner_vid", m_qinq_inner, 0 },
	{ "stripped_vid", m_strip_vid, 0 },
	{ "stripped_vs_untagged", m_strip_vs_none, 0 },
	{ "stripped_vs_inframe", m_strip_vs_frame, 0 },
	{ "stripped_outer_vid", m_outer_strip, 0 },
	{ "src_mac", m_smac, 0 },
	{ "dst_mac", m_dmac, 0 },
	{ "rss_hash", m_rss, 0 },
	{ "rss_hash_same", m_rss_same, 1 },
	{ "ip_saddr", m_saddr, 0 },
	{ "ip_daddr", m_daddr, 0 },
	{ "tcp_sport", m_sport, 0 },
	{ "tcp_dport", m_dport, 0 },
	{ "ipv6_flow_label", m_flowlabel, 0 },
};

static void
test_pairs(void **state)
{
	static struct seq s;
	struct tp_gro_stats st;
	unsigned int i;
	int v6, got[8], n;

	(void)state;
	for (v6 = 0; v6 < 2; v6++) {
		for (i = 0; i < RTE_DIM(pairs); i++) {
			int k;

			if (!v6 && pairs[i].mod == m_flowlabel)
				continue;
			s.n = 0;
			b_data_same(&s, v6);
			for (k = 0; k < 2; k++)
				pairs[i].mod(&s.p[k], &s.meta[k], k);
			n = seq_run(mp, &s, got, 8, &st);
			if (pairs[i].merge) {
				assert_int_equal(n, 1);
				assert_int_equal(got[0], 200);
			} else {
				if (n != 2)
					fprintf(stderr, "pair %s v6=%d merged\n", pairs[i].name, v6);
				assert_int_equal(n, 2);
				assert_int_equal(got[0], 100);
				assert_int_equal(got[1], 100);
			}
		}
	}
}

/* Two switch ports interleaved, each an in-order stream: each merges with
 * itself only (the DSA CPU port case of the issue). */
static void
test_two_ports_interleaved(void **state)
{
	static struct seq s;
	struct tp_gro_stats st;
	int v6, i, got[8], n;

	(void)state;
	for (v6 = 0; v6 < 2; v6++) {
		s.n = 0;
		for (i = 0; i < 8; i++) {
			seq_add(&s, v6, (uint32_t)(i / 2) * 100, 100);
			s.meta[i].dsa_valid = 1;
			s.meta[i].dsa_port = (uint8_t)(1 + (i & 1));
		}
		n = seq_run(mp, &s, got, 8, &st);
		assert_int_equal(n, 2);
		assert_int_equal(got[0], 400);
		assert_int_equal(got[1], 400);
		/* the same frames without ports are one flow whose sequence
		 * goes back every other frame: 0 | 0+100 | 100+200 | 200+300 | 300 */
		for (i = 0; i < 8; i++)
			s.meta[i].dsa_valid = 0;
		n = seq_run(mp, &s, got, 8, &st);
		assert_int_equal(n, 5);
		assert_int_equal(got[0], 100);
		assert_int_equal(got[1], 200);
		assert_int_equal(got[2], 200);
		assert_int_equal(got[3], 200);
		assert_int_equal(got[4], 100);
		assert_int_equal(st.flush[TP_GRO_FLUSH_SEQ], 4);
	}
}

int
main(void)
{
	struct CMUnitTest *t;
	struct case_state *cs;
	const unsigned int nc = RTE_DIM(cases);
	unsigned int i, n = 0, v6, var;
	static char names[2 * 64 * VAR_MAX][64];
	int rc;

	tp_test_eal_init(NULL);
	mp = tp_test_pool_create("gro_rules", 4096, 8192);
	t = calloc(2 * nc * VAR_MAX + 8, sizeof(*t));
	cs = calloc(2 * nc * VAR_MAX, sizeof(*cs));
	for (v6 = 0; v6 < 2; v6++)
		for (var = 0; var < VAR_MAX; var++)
			for (i = 0; i < nc; i++) {
				if (!(cases[i].fam & (v6 ? F6 : F4)))
					continue;
				cs[n] = (struct case_state){ &cases[i], (int)v6, var };
				snprintf(names[n], sizeof(names[n]), "%s/%s/%s",
					 v6 ? "ipv6" : "ipv4", var_names[var], cases[i].name);
				t[n] = (struct CMUnitTest){ .name = names[n], .test_func = test_case,
							    .initial_state = &cs[n] };
				n++;
			}
	t[n++] = (struct CMUnitTest)cmocka_unit_test(test_capacity_many);
	t[n++] = (struct CMUnitTest)cmocka_unit_test(test_pairs);
	t[n++] = (struct CMUnitTest)cmocka_unit_test(test_two_ports_interleaved);
	rc = _cmocka_run_group_tests("gro_rules", t, n, NULL, NULL);
	free(t);
	free(cs);
	return rc;
}
