#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Issue 14, point 3: the counters of one forwarding run agree on every
surface. tagpipe-fwd -i forwards pcaps/demo.pcap on two net_aqc_sim ports
(wire=pcap, lossless) in pipeline mode with GRO and GSO; while it runs (all
frames received) DPDK's telemetry client reads /ethdev/stats,P,
/tagpipe/stats and /tagpipe/ports; then the prompt's forward statistics
(at stop), "show pipeline stats" and "show port stats all". Checked:
  - each port received the capture's frames (counted here from the file);
  - telemetry's ethdev counters = the prompt's port counters;
  - forward statistics: RX = the ports' RX, TX = the ports' TX, the
    Passed-frames = every frame, Passed-packets = the PASS verdicts the
    pipeline counted in packets (a merged packet once);
  - the pipeline's frames (rx, pass) = telemetry's /tagpipe/stats, and
    /tagpipe/ports tx = the ports' own TX of each port;
  - every frame left: TX = RX (GSO splits merged packets back)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import fwd_telemetry  # noqa: E402  (its telemetry client helpers)


def main():
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    eal = fwdlib.eal_args('tpfwd_agree', [
        'net_aqc_sim0,wire=pcap,rx_pcap=%s,tx_pcap=/dev/null' % demo,
        'net_aqc_sim1,wire=pcap,rx_pcap=%s,tx_pcap=/dev/null' % demo])
    prefix = os.path.basename(fwdlib.runtime_dir(eal))
    tel = {}

    def consumed(text):
        st = fwdlib.last_port_stats(text)
        return st.get(0, {}).get('rx') == n and st.get(1, {}).get('rx') == n and \
            st[0]['tx'] + st[1]['tx'] == 2 * n

    def ask():
        tel.update(fwd_telemetry.query(prefix, ['/tagpipe/stats', '/tagpipe/ports']))
        for p in (0, 1):   # the client keys replies by endpoint: one each
            tel['/ethdev/stats,%d' % p] = fwd_telemetry.one(prefix, '/ethdev/stats,%d' % p)

    rc, out, err = fwdlib.run_prompt(eal, ['--forward-mode', 'pipeline', '--gro', 'burst'],
                                     [('start', consumed), (None, ask), ('stop', 0.5),
                                      ('show pipeline stats', 0.3),
                                      ('show port stats all', 0.3), ('quit', 0)])
    print(out)
    print(err, file=sys.stderr)
    c.eq('exit status', rc, 0)
    ports = fwdlib.last_port_stats(out)
    for p in (0, 1):
        c.eq('port %d RX = the capture' % p, ports.get(p, {}).get('rx'), n)
        eth = tel.get('/ethdev/stats,%d' % p) or {}
        c.eq('telemetry /ethdev/stats,%d ipackets = prompt RX' % p, eth.get('ipackets'),
             ports.get(p, {}).get('rx'))
        c.eq('telemetry /ethdev/stats,%d opackets = prompt TX' % p, eth.get('opackets'),
             ports.get(p, {}).get('tx'))
    fwd = fwdlib.fwd_stats(out)
    c.true('forward statistics printed', len(fwd) > 0)
    rx = sum(f[4] for f in fwd)
    tx = sum(f[5] for f in fwd)
    c.eq('forward RX = ports RX', rx, ports[0]['rx'] + ports[1]['rx'])
    c.eq('forward TX = ports TX', tx, ports[0]['tx'] + ports[1]['tx'])
    c.eq('every frame forwarded (GSO splits merged packets back)', tx, 2 * n)
    c.eq('forward Dropped', sum(f[6] for f in fwd), 0)
    c.eq('forward Passed-frames = every frame', sum(f[7] for f in fwd), 2 * n)
    pl = fwdlib.pipeline_stats(out)
    c.true('pipeline statistics printed', len(pl) > 0)
    if pl:
        last = pl[-1]
        c.eq('pipeline RX-frames = ports RX', last['rx'], 2 * n)
        c.eq('pipeline Pass (frames) = every frame', last['pass'], 2 * n)
        c.eq('forward Passed-packets = pipeline pass verdicts (packets)',
             sum(fwdlib.fwd_stats_passed_packets(out)), last['verdict_pkts'].get('pass'))
        c.true('GRO merged something (packets < frames)',
               last['verdict_pkts'].get('pass', 0) < 2 * n)
        st = tel.get('/tagpipe/stats') or {}
        c.eq('telemetry /tagpipe/stats rx = prompt', st.get('rx'), last['rx'])
        c.eq('telemetry /tagpipe/stats pass = prompt', st.get('pass'), last['pass'])
        for k in ('tx', 'redirect', 'drop', 'aborted'):
            c.eq('telemetry /tagpipe/stats %s = prompt' % k, st.get(k), last[k])
        # Issue 26: the PASS packets tagpipe-fwd splits (GSO) are the
        # pipeline's own count, so telemetry says what the prompt says.
        seg = fwdlib.pipeline_segmented(out)
        c.true('merged PASS packets were split (Segmented > 0)', bool(seg) and seg[-1][0] > 0)
        c.eq('telemetry /tagpipe/stats segmented = prompt Segmented', st.get('segmented'),
             seg[-1][0] if seg else None)
    tp = tel.get('/tagpipe/ports') or {}
    for p in (0, 1):
        t = tp.get(str(p)) or {}
        c.eq('telemetry /tagpipe/ports %d tx = port TX' % p, t.get('tx'), ports[p]['tx'])
    c.eq('mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
    c.exit()


if __name__ == '__main__':
    main()
