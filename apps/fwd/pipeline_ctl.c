/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipeline mode's control side: checking options, making and destroying the
 * per-stream instances (with their redirect maps), "set verdict", "set gro"
 * and "show pipeline stats". Instances are made at start and kept across
 * stop/start (their counters too); a change of verdict or GRO destroys them
 * so the next start makes new ones. The verdict program is opened once and
 * shared by every instance, so an XDP object's maps are one set for all
 * lcores (as a kernel map is for all CPUs) and survive stop/start and GRO
 * changes; "set verdict" replaces it.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_ethdev.h>

#include "cli_syntax.h"
#include "pipeline_ctl.h"
#include "tagpipe.h"

static struct tp_redirect_map *maps[FWD_MAX_STREAMS];
static struct tp_prog *prog; /* shared by every instance; NULL: default */

int
fwd_pipeline_check_options(const struct fwd_options *o, char *err, size_t len)
{
	int rc;

	for (unsigned int p = 0; p < FWD_MAX_PORTS; p++) {
		const char *t = o->port[p].tagger;
		char terr[1200];

		if (t[0] != '\0' && cli_check_tagger(t, terr, sizeof(terr)) < 0) {
			snprintf(err, len, "--port-tagger %u:%s: %s", p, t, terr);
			return -EINVAL;
		}
	}
	if (o->verdict[0] != '\0') {
		char perr[256];

		rc = tp_prog_open(o->verdict, &prog, perr, sizeof(perr));
		if (rc != 0) {
			snprintf(err, len, "--verdict: '%s': %s", o->verdict, perr);
			return -EINVAL;
		}
	}
#ifdef TP_HAS_BPF
	for (unsigned int i = 0; i < o->nb_bpf_maps; i++) {
		char merr[256];

		if (tp_prog_bpf_map_update_text(prog, o->bpf_map[i], merr, sizeof(merr)) < 0) {
			snprintf(err, len, "--bpf-map: %s", merr);
			return -EINVAL;
		}
	}
	for (unsigned int i = 0; i < o->nb_bpf_routes; i++) {
		char rerr[256];

		if (tp_prog_bpf_route_add(prog, o->bpf_route[i], rerr, sizeof(rerr)) < 0) {
			snprintf(err, len, "--bpf-route: %s", rerr);
			return -EINVAL;
		}
	}
#else
	if (o->nb_bpf_maps > 0 || o->nb_bpf_routes > 0) {
		snprintf(err, len, "--bpf-map/--bpf-route: built without lib/bpf (-Dbpf=disabled)");
		return -EINVAL;
	}
#endif
	rc = tp_telemetry_register();
	if (rc != 0)
		FWD_LOG(WARNING, "telemetry endpoints: %s", rte_strerror(-rc));
	return 0;
}

static struct tp_redirect_map *
make_map(const struct fwd_stream *fs)
{
	struct tp_redirect_map *m;
	uint32_t n = 1;

	for (unsigned int i = 0; i < fwd.opt.nb_redirects; i++)
		n = RTE_MAX(n, fwd.opt.redirect[i].key + 1);
	m = tp_redirect_map_create(n);
	if (m == NULL)
		return NULL;
	for (unsigned int i = 0; i < fwd.opt.nb_redirects; i++) {
		const struct fwd_redirect *r = &fwd.opt.redirect[i];

		if (tp_redirect_map_set_port(m, r->key, fwd.port_ids[r->port],
					     fs->tx_queue, r->switch_port) != 0) {
			tp_redirect_map_free(m);
			return NULL;
		}
	}
	return m;
}

/* An XDP program that is not xdp.frags is never given a frame of several
 * buffers, as in the kernel, whose drivers refuse to attach one where
 * frames may span buffers (e.g. drivers/net/ethernet/intel/i40e
 * i40e_xdp_setup: frame size above the buffer). So it is refused for a
 * port whose MTU admits frames (Ethernet header, two VLAN tags, the
 * port's switch tag) longer than an mbuf's data room. 0 or -EINVAL. */
#ifndef TP_HAS_BPF
static int
frames_fit(uint16_t port)
{
	(void)port;     /* no XDP object without lib/bpf */
	return 0;
}
#else
static int
frames_fit(uint16_t port)
{
	struct tp_bpf_exec_info xi;
	const struct tp_dsa_tagger *t = NULL;
	uint32_t frame, room;
	uint16_t mtu;

	if (tp_prog_bpf_exec_info(prog, &xi) != 0 || xi.frags ||
	    rte_eth_dev_get_mtu(port, &mtu) != 0)
		return 0;
	for (uint16_t i = 0; i < fwd.nb_ports; i++)
		if (fwd.port_ids[i] == port && fwd.opt.port[i].tagger[0] != '\0')
			t = tp_dsa_tagger_find(fwd.opt.port[i].tagger);
	frame = (uint32_t)mtu + RTE_ETHER_HDR_LEN + 2 * RTE_VLAN_HLEN + (t ? t->rx_len : 0);
	room = rte_pktmbuf_data_room_size(fwd.pool) - RTE_PKTMBUF_HEADROOM;
	if (frame <= room)
		return 0;
	fwd_err("port %u: MTU %u admits frames of %u bytes (Ethernet header, two VLAN "
		"tags%s), more than an mbuf's data room of %u: %s (section %s) is not an "
		"xdp.frags program, and the kernel never gives one a frame of several "
		"buffers (use an xdp.frags program, a smaller --max-pkt-len or a larger "
		"--mbuf-size)", port, mtu, frame, t ? ", switch tag" : "", room, xi.path,
		xi.section);
	return -EINVAL;
}
#endif

void
fwd_pipeline_show_verdict(void)
{
	printf("Verdict program: %s\n", fwd.opt.verdict[0] ? fwd.opt.verdict : "pass");
#ifdef TP_HAS_BPF
	char line[1024];
	struct tp_bpf_stats st;

	if (tp_prog_bpf_exec_line(prog, line, sizeof(line)) >= 0 &&
	    tp_prog_bpf_stats(prog, &st) == 0)
		printf("  %s\n  Runs: %" PRIu64 "  Aborted-oob: %" PRIu64 "  Aborted-helper: %"
		       PRIu64 "  Aborted-loop: %" PRIu64 "  Linearized: %" PRIu64
		       "  Multibuf-dropped: %" PRIu64 "\n", line, st.runs, st.aborted_oob,
		       st.aborted_helper, st.aborted_loop, st.linearized, st.multibuf_dropped);
#endif
	fflush(stdout);
}

int
fwd_pipeline_stream_init(struct fwd_stream *fs)
{
	unsigned int s = (unsigned int)(fs - fwd.streams);
	struct tp_pipeline_conf conf;
	char name[32], err[256];
	int rc;

	if (fs->ctx != NULL)
		return 0;
	rc = frames_fit(fs->rx_port);
	if (rc != 0)
		return rc;
	tp_pipeline_conf_init(&conf);
	snprintf(name, sizeof(name), "fwd-p%uq%u", fs->rx_port, fs->rx_queue);
	conf.name = name;
	for (uint16_t i = 0; i < fwd.nb_ports; i++) {
		uint16_t port = fwd.port_ids[i];
		struct tp_port_conf *pc = &conf.port[port];

		pc->enabled = true;
		snprintf(pc->tagger, sizeof(pc->tagger), "%s",
			 fwd.opt.port[i].tagger[0] ? fwd.opt.port[i].tagger : "none");
		pc->vlan = fwd.opt.port[i].vlan == FWD_VLAN_STRIP ?
			   TP_VLAN_POLICY_STRIP : TP_VLAN_POLICY_KEEP;
	}
	conf.gro.mode = !fwd.opt.gro.on ? TP_GRO_OFF :
			fwd.opt.gro.age_usec ? TP_GRO_AGE : TP_GRO_BURST;
	conf.gro.age_usec = fwd.opt.gro.age_usec;
	conf.gro.kernel_order = fwd.opt.gro.kernel_order;
	conf.gro.tunnels = fwd.opt.gro.tunnels;
	conf.gro.udp = fwd.opt.gro.udp;
	memcpy(conf.gro.vxlan_ports, fwd.opt.gro.vxlan_ports, sizeof(conf.gro.vxlan_ports));
	conf.gro.max_flows = fwd.opt.gro.max_flows;
	conf.gro.max_segs = (uint16_t)fwd.opt.gro.max_segs;
	conf.prog = prog;
	conf.stage_cycles = fwd.opt.stage_cycles;
	conf.seg_pool = fwd.pool;
	conf.tx_queue = fs->tx_queue;
	conf.pass_cb = fwd_pipeline_pass;
	conf.pass_arg = fs;
	conf.socket_id = rte_eth_dev_socket_id(fs->rx_port);
	maps[s] = make_map(fs);
	if (maps[s] == NULL)
		return -ENOMEM;
	conf.redirect = maps[s];
	rc = tp_pipeline_create(&conf, (struct tp_pipeline **)&fs->ctx, err, sizeof(err));
	if (rc != 0) {
		fwd_err("pipeline %s: %s", name, err);
		tp_redirect_map_free(maps[s]);
		maps[s] = NULL;
		fs->ctx = NULL;
	}
	return rc;
}

void
fwd_pipeline_release(void)
{
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		tp_pipeline_destroy(fwd.streams[s].ctx);
		fwd.streams[s].ctx = NULL;
		tp_redirect_map_free(maps[s]);
		maps[s] = NULL;
	}
}

int
fwd_pipeline_set_verdict(const char *spec)
{
	struct tp_prog *p;
	char err[256];
	int rc;

	if (fwd.running) {
		fwd_err("set verdict %s: stop forwarding first", spec);
		return -EBUSY;
	}
	if (strlen(spec) >= sizeof(fwd.opt.verdict)) {
		fwd_err("set verdict: program spec too long '%s'", spec);
		return -EINVAL;
	}
	rc = tp_prog_open(spec, &p, err, sizeof(err));
	if (rc != 0) {
		fwd_err("set verdict: '%s': %s", spec, err);
		return rc;
	}
	strcpy(fwd.opt.verdict, spec);
	fwd_pipeline_release(); /* before the program they use goes */
	tp_prog_close(prog);
	prog = p;
	printf("Verdict program set to %s (pipelines re-made at start)\n", spec);
	return 0;
}

void
fwd_pipeline_close_prog(void)
{
	tp_prog_close(prog);
	prog = NULL;
}

#ifndef TP_HAS_BPF
void
fwd_pipeline_bpf_map(const char *verb, const char *arg)
{
	(void)arg;
	fwd_err("bpf map %s: built without lib/bpf (-Dbpf=disabled)", verb);
}
#else
void
fwd_pipeline_bpf_map(const char *verb, const char *arg)
{
	int n = tp_prog_bpf_map_count(prog);
	char err[256];

	if (n < 0) {
		fwd_err("bpf map %s: the verdict program is not an XDP object", verb);
		return;
	}
	if (strcmp(verb, "list") == 0) {
		for (int i = 0; i < n; i++) {
			struct tp_bpf_map_info mi;

			tp_prog_bpf_map_info(prog, i, &mi);
			printf("%s type %u key %u value %u max_entries %u%s\n", mi.name,
			       mi.type, mi.key_size, mi.value_size, mi.max_entries,
			       mi.ncpu > 1 ? " per-cpu" : "");
		}
	} else if (strcmp(verb, "dump") == 0 || strcmp(verb, "show") == 0) {
		int i = tp_prog_bpf_map_find(prog, arg);

		if (i < 0)
			fwd_err("bpf map %s: no map '%s'", verb, arg);
		else
			printf("%d elements\n", verb[0] == 'd' ? tp_prog_bpf_map_dump(prog, i, stdout) :
			       tp_prog_bpf_map_dump_btf(prog, i, stdout));
	} else if (strcmp(verb, "delete") == 0) {
		if (tp_prog_bpf_map_delete_text(prog, arg, err, sizeof(err)) < 0)
			fwd_err("bpf map delete: %s", err);
		else
			printf("Deleted %s\n", arg);
	} else if (tp_prog_bpf_map_update_text(prog, arg, err, sizeof(err)) < 0) {
		fwd_err("bpf map set: %s", err);
	} else {
		printf("Set %s\n", arg);
	}
	fflush(stdout);
}
#endif /* TP_HAS_BPF */

int
fwd_pipeline_set_gro(bool on)
{
	if (fwd.running) {
		fwd_err("set gro %s: stop forwarding first", on ? "on" : "off");
		return -EBUSY;
	}
	fwd.opt.gro.on = on;
	fwd_pipeline_release();
	printf("GRO %s (pipelines re-made at start)\n", on ? "on" : "off");
	return 0;
}

bool
fwd_pipeline_stream_counts(const struct fwd_stream *fs, struct fwd_counts *c)
{
	struct tp_pipeline_stats st;

	if (fs->ctx == NULL || tp_pipeline_stats_get(fs->ctx, &st) != 0)
		return false;
	c->rx = st.rx;
	c->tx = st.tx + st.redirect + st.pass;
	c->dropped = st.drop + st.aborted;
	return true;
}

int
fwd_pipeline_set_stage_cycles(bool on)
{
	if (fwd.running) {
		fwd_err("set stage-cycles %s: stop forwarding first", on ? "on" : "off");
		return -EBUSY;
	}
	fwd.opt.stage_cycles = on;
	fwd_pipeline_release();
	printf("Stage cycles %s (pipelines re-made at start)\n", on ? "on" : "off");
	return 0;
}

static void
print_stats(const struct tp_pipeline_stats *st, unsigned int nb)
{
	const struct tp_stage_stats *gro = &st->stage[TP_STAGE_GRO];

	printf("\n  ######################## Pipeline statistics (%u instances) ########################\n",
	       nb);
	printf("  RX-frames: %" PRIu64 "  Pass: %" PRIu64 "  TX: %" PRIu64 "  Redirect: %"
	       PRIu64 "  Drop: %" PRIu64 "  Aborted: %" PRIu64 "  Held-in-GRO: %" PRIu64
	       "  Copies: %" PRIu64 "\n", st->rx, st->pass, st->tx, st->redirect, st->drop,
	       st->aborted, st->held_in_gro, st->copies);
	printf("  Verdict-packets:");
	for (unsigned int v = 0; v < TP_NB_VERDICTS; v++)
		printf(" %s=%" PRIu64, tp_verdict_name(v), st->verdict_pkts[v]);
	printf("\n  GRO-in: %" PRIu64 "  GRO-out: %" PRIu64 "  Merge-ratio: %.2f\n",
	       gro->in, gro->out, gro->out ? (double)gro->in / (double)gro->out : 0.0);
	/* Merged packets that left as several frames: split in software
	 * (GSO; TX/REDIRECT in the pipeline, PASS by this program) or handed to
	 * the port's TSO (TX/REDIRECT only: PASS is split in software). */
	printf("  Segmented: %" PRIu64 "  TSO: %" PRIu64 "  TX-retries: %" PRIu64 "\n",
	       st->segmented, st->tso, st->tx_retries);
	for (unsigned int s = 0; s < TP_STAGE_MAX; s++) {
		const struct tp_stage_stats *t = &st->stage[s];

		printf("  Stage %-8s calls %-10" PRIu64 " in %-10" PRIu64 " out %-10" PRIu64
		       " drop %-8" PRIu64 " cycles/mbuf %.1f\n", tp_stage_name(s), t->calls,
		       t->in, t->out, t->drop, t->in ? (double)t->cycles / (double)t->in : 0.0);
	}
	printf("  Drop-reasons:");
	for (unsigned int r = 0; r < TP_DROP_MAX; r++)
		if (st->drop_reason[r] != 0)
			printf(" %s=%" PRIu64, tp_drop_reason_name(r), st->drop_reason[r]);
	printf("\n  ##########################################################################\n");
	fflush(stdout);
}

void
fwd_pipeline_clear_stats(void)
{
	for (unsigned int s = 0; s < fwd.nb_streams; s++)
		if (fwd.streams[s].ctx != NULL)
			tp_pipeline_stats_reset(fwd.streams[s].ctx);
}

void
fwd_pipeline_show_stats(void)
{
	struct tp_pipeline_stats sum, one;
	unsigned int nb = 0;

	memset(&sum, 0, sizeof(sum));
	for (unsigned int s = 0; s < fwd.nb_streams; s++) {
		if (fwd.streams[s].ctx == NULL)
			continue;
		if (tp_pipeline_stats_get(fwd.streams[s].ctx, &one) == 0) {
			tp_pipeline_stats_add(&sum, &one);
			nb++;
		}
	}
	if (nb == 0) {
		printf("No pipeline instance (pipeline mode not started)\n");
		fflush(stdout);
		return;
	}
	print_stats(&sum, nb);
}
