#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""While tagpipe-fwd runs in pipeline mode, DPDK's own client
(/usr/bin/dpdk-telemetry.py, package dpdk) lists tagpipe's endpoints and
returns its counters, which must match the frames sent and the ports' own
counters (/ethdev/stats), with the PASS verdict (tagpipe-fwd transmits)
and the TX verdict (the pipeline transmits); an unknown pipeline name is an
error naming it.

Runtime directory: the EAL puts the telemetry socket in
/var/run/dpdk/<file-prefix>/dpdk_telemetry.v2 also with --no-shconf (and
with --in-memory), so `dpdk-telemetry.py -f <file-prefix>` finds it; the
EAL must not get --no-telemetry."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

CLIENT = '/usr/bin/dpdk-telemetry.py'
ENDPOINTS = ['/tagpipe/pipelines', '/tagpipe/stats', '/tagpipe/drops',
             '/tagpipe/stages', '/tagpipe/ports']


def query(prefix, cmds):
    """Send commands through dpdk-telemetry.py; {command: reply}."""
    r = subprocess.run(['/usr/bin/python3', CLIENT, '-f', prefix],
                       input='\n'.join(cmds) + '\n', capture_output=True,
                       text=True, timeout=60)
    print(r.stdout)
    print(r.stderr, file=sys.stderr)
    res = {}
    for line in r.stdout.splitlines():
        line = line.strip()
        if line.startswith('{'):
            try:
                res.update(json.loads(line))
            except ValueError:
                pass
    return res


def one(prefix, cmd):
    """The reply to one command (the value under its endpoint's name)."""
    r = query(prefix, [cmd])
    return r.get(cmd.split(',')[0])


def run(c, verdict, demo, n):
    """Forward demo.pcap on two net_pcap ports with --verdict verdict and
    check telemetry against the ports' own counters (/ethdev/stats)."""
    tag = '[%s] ' % verdict
    eal = fwdlib.eal_args('tpfwd_tel_' + verdict, [
        'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
        'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % demo])
    prefix = os.path.basename(fwdlib.runtime_dir(eal))
    replies = {}

    def consumed(text):
        st = fwdlib.last_port_stats(text)
        return 0 in st and 1 in st and st[0]['rx'] == n and st[1]['rx'] == n

    def ask():
        # The frames of the last burst may still be in the pipeline when the
        # port counted them: wait (at most 10 s) until telemetry has them all.
        for _ in range(50):
            st = one(prefix, '/tagpipe/stats') or {}
            if st.get('rx') == 2 * n and (st.get('pass', 0) + st.get('tx', 0) == 2 * n):
                break
            time.sleep(0.2)
        replies.update(query(prefix, ['/'] + ENDPOINTS))
        for p in (0, 1):
            replies['/ethdev/stats,%d' % p] = one(prefix, '/ethdev/stats,%d' % p)
        replies['/tagpipe/stats,fwd-p0q0'] = one(prefix, '/tagpipe/stats,fwd-p0q0')
        replies['/tagpipe/stats,fwd0'] = one(prefix, '/tagpipe/stats,fwd0')
        replies['/tagpipe/ports,fwd0'] = one(prefix, '/tagpipe/ports,fwd0')

    rc, out, err = fwdlib.run_prompt(eal, ['--forward-mode', 'pipeline',
                                           '--verdict', verdict], [
        ('start', consumed), (None, ask), ('stop', 0.1), ('quit', 0)])
    print(out)
    print(err, file=sys.stderr)
    c.eq(tag + 'tagpipe-fwd exit status', rc, 0)
    listed = replies.get('/', [])
    for e in ENDPOINTS:
        c.true(tag + 'endpoint %s listed by dpdk-telemetry.py' % e, e in listed)
    c.eq(tag + '/tagpipe/pipelines', sorted(replies.get('/tagpipe/pipelines', [])),
         ['fwd-p0q0', 'fwd-p1q0'])
    st = replies.get('/tagpipe/stats', {})
    c.eq(tag + '/tagpipe/stats rx (frames sent on both ports)', st.get('rx'), 2 * n)
    c.eq(tag + '/tagpipe/stats ' + verdict, st.get(verdict), 2 * n)
    c.eq(tag + '/tagpipe/stats held_in_gro', st.get('held_in_gro'), 0)
    c.eq(tag + '/tagpipe/stats conservation',
         sum(st.get(k, 0) for k in ('pass', 'tx', 'redirect', 'drop', 'aborted',
                                    'held_in_gro')), st.get('rx'))
    c.true(tag + '/tagpipe/stages answered', bool(replies.get('/tagpipe/stages')))
    c.eq(tag + '/tagpipe/stats,fwd-p0q0 rx (one instance)',
         (replies.get('/tagpipe/stats,fwd-p0q0') or {}).get('rx'), n)
    # An unknown name is an error that names it and the live instances.
    bad = {'error': "no pipeline named 'fwd0' (pipelines: fwd-p0q0, fwd-p1q0)"}
    c.eq(tag + '/tagpipe/stats,fwd0', replies.get('/tagpipe/stats,fwd0'), bad)
    c.eq(tag + '/tagpipe/ports,fwd0', replies.get('/tagpipe/ports,fwd0'), bad)
    # Per port: telemetry's frames are the port's own counters (every frame
    # here is a plain one: frames = mbufs = packets on the wire).
    ports = replies.get('/tagpipe/ports') or {}
    for p in (0, 1):
        eth = replies.get('/ethdev/stats,%d' % p) or {}
        tp = ports.get(str(p), {})
        c.eq(tag + '/ethdev/stats,%d ipackets' % p, eth.get('ipackets'), n)
        c.eq(tag + '/tagpipe/ports port %d rx = ethdev ipackets' % p, tp.get('rx'),
             eth.get('ipackets'))
        c.eq(tag + '/tagpipe/ports port %d tx = ethdev opackets' % p, tp.get('tx'),
             eth.get('opackets'))
        c.eq(tag + '/tagpipe/ports port %d tx_wire = ethdev opackets' % p,
             tp.get('tx_wire'), eth.get('opackets'))
        c.eq(tag + '/tagpipe/ports port %d tx (all frames forwarded)' % p, tp.get('tx'), n)
        c.eq(tag + '/tagpipe/ports port %d tx_full' % p, tp.get('tx_full'), 0)


def main():
    if not os.path.exists(CLIENT):
        print('SKIP: %s not installed (Debian package dpdk)' % CLIENT)
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    # PASS: tagpipe-fwd transmits (tp_pipeline_pass_tx); TX: the pipeline does.
    for verdict in ('pass', 'tx'):
        run(c, verdict, demo, n)
    c.exit()


if __name__ == '__main__':
    main()
