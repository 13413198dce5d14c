#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""While tagpipe-fwd runs in pipeline mode, DPDK's own client
(/usr/bin/dpdk-telemetry.py, package dpdk) lists tagpipe's endpoints and
returns its counters, which must match the frames sent.

Runtime directory: the EAL puts the telemetry socket in
/var/run/dpdk/<file-prefix>/dpdk_telemetry.v2 also with --no-shconf (and
with --in-memory), so `dpdk-telemetry.py -f <file-prefix>` finds it; the
EAL must not get --no-telemetry."""
import json
import os
import subprocess
import sys

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


def main():
    if not os.path.exists(CLIENT):
        print('SKIP: %s not installed (Debian package dpdk)' % CLIENT)
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    eal = fwdlib.eal_args('tpfwd_tel', [
        'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
        'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % demo])
    prefix = os.path.basename(fwdlib.runtime_dir(eal))
    replies = {}

    def consumed(text):
        st = fwdlib.last_port_stats(text)
        return 0 in st and 1 in st and st[0]['rx'] == n and st[1]['rx'] == n

    def ask():
        replies.update(query(prefix, ['/'] + ENDPOINTS + ['/ethdev/stats,0']))

    rc, out, err = fwdlib.run_prompt(eal, ['--forward-mode', 'pipeline'], [
        ('start', consumed), (None, ask), ('stop', 0.1), ('quit', 0)])
    print(out)
    print(err, file=sys.stderr)
    c.eq('tagpipe-fwd exit status', rc, 0)
    listed = replies.get('/', [])
    for e in ENDPOINTS:
        c.true('endpoint %s listed by dpdk-telemetry.py' % e, e in listed)
    c.eq('/tagpipe/pipelines', sorted(replies.get('/tagpipe/pipelines', [])),
         ['fwd-p0q0', 'fwd-p1q0'])
    st = replies.get('/tagpipe/stats', {})
    c.eq('/tagpipe/stats rx (frames sent on both ports)', st.get('rx'), 2 * n)
    c.eq('/tagpipe/stats pass', st.get('pass'), 2 * n)
    c.eq('/tagpipe/stats held_in_gro', st.get('held_in_gro'), 0)
    c.eq('/tagpipe/stats conservation',
         sum(st.get(k, 0) for k in ('pass', 'tx', 'redirect', 'drop', 'aborted',
                                    'held_in_gro')), st.get('rx'))
    c.true('/tagpipe/stages answered', bool(replies.get('/tagpipe/stages')))
    c.true('/tagpipe/ports answered', bool(replies.get('/tagpipe/ports')))
    c.eq('/ethdev/stats,0 ipackets', replies.get('/ethdev/stats', {}).get('ipackets'), n)
    c.exit()


if __name__ == '__main__':
    main()
