#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures for host interfaces (--host-if): TCP into a Linux stack behind a
tagged conduit, with tagpipe's GRO on and off, beside the kernel's own
path. Prints a table; never fails on time (exit 77 when it cannot run).

tagpipe path (tests/integration/hostif_topo.py): iperf3 from namespace A
through lanA, tagpipe-fwd H, the tagged veth wire, tagpipe-fwd S (the
switch), namespace W (routes), back over the wire to H and lanB into B.
Only H's GRO changes between the two tagpipe rows.

net_aqc_sim path: one tagpipe-fwd, two net_aqc_sim ports cabled to each
other (wire=peer), switch port 1 of each a host interface in A and B: no
second tagpipe-fwd, no veth, TSO in the chip model. The model's cable
drops what its peer queue cannot take inside one TSO burst, so TCP
retransmits there.

kernel path: A -veth- W -veth- B, W routing, the W->B veth with TSO/GSO
off so B receives MTU-sized frames as from a wire, and B's veth GRO on or
off (veth's NAPI GRO). This kernel has no 802.1Q support
(CONFIG_VLAN_8021Q is off here), so the kernel row has no tags: it is the
kernel's nearest path on this machine, not a DSA conduit.

Per run (iperf3 -t SECONDS, A -> B): Gbit/s (iperf3's receiver); CPU
per Gbit: system + softirq + irq time of all CPUs from /proc/stat over
the run, in CPU-seconds per Gbit transferred (tagpipe's busy-polling
lcores are user time and not in it; the whole machine, sender and router
included, since all of it is one host here); and packets per second the
receiving stack got (B's interface RX packets). Median of RUNS runs, with
min..max. Environment: RUNS (3), SECONDS (4).
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
import fwdlib  # noqa: E402
import hostif_topo as ht  # noqa: E402
from fwd_host_if import Fwd  # noqa: E402

RUNS = int(os.environ.get('RUNS', '3'))
SECONDS = int(os.environ.get('SECONDS', '4'))


def cpu_sys():
    """system + irq + softirq jiffies of all CPUs."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...
    return v[2] + v[5] + v[6]


def rx_packets(ns, dev):
    r = ht.sh('ip', '-n', ns, '-s', '-j', 'link', 'show', dev)
    return json.loads(r.stdout)[0]['stats64']['rx']['packets']


def one_run(ns_a, ns_b, addr, b_dev):
    srv = subprocess.Popen(['ip', 'netns', 'exec', ns_b, 'iperf3', '-s', '-1', '-B', addr],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ht.wait_listening(ns_b, 5201)
        p0, c0, t0 = rx_packets(ns_b, b_dev), cpu_sys(), time.monotonic()
        r = ht.sh('ip', 'netns', 'exec', ns_a, 'iperf3', '-c', addr, '-t', str(SECONDS),
                  '-J', '--connect-timeout', '5000', check=False, timeout=SECONDS + 60)
        p1, c1, t1 = rx_packets(ns_b, b_dev), cpu_sys(), time.monotonic()
    finally:
        srv.kill()
        srv.wait()
    try:
        recv = json.loads(r.stdout)['end']['sum_received']
    except (ValueError, KeyError):
        return None
    gbit = recv['bytes'] * 8 / 1e9
    hz = os.sysconf('SC_CLK_TCK')
    return {'gbps': recv['bits_per_second'] / 1e9,
            'cpu_per_gbit': (c1 - c0) / hz / gbit if gbit else 0.0,
            'pps': (p1 - p0) / (t1 - t0)}


def tagpipe_rows(topo):
    rows = []
    s = Fwd('S', topo.ns_w, topo.wire, topo.switch_if_option(), 1)
    try:
        if not s.wait_for('packet forwarding - ports=1'):
            return rows
        topo.attach_switch()
        for gro in ('on', 'off'):
            h = Fwd('H', None, topo.conduit, topo.host_if_option(), 0, extra=['--gro', gro])
            try:
                if not h.wait_for('packet forwarding - ports=1'):
                    continue
                topo.attach_hosts()
                runs = [one_run(topo.ns[1], topo.ns[2], ht.SIDES[2][0][0], topo.lan[2])
                        for _ in range(RUNS)]
            finally:
                h.finish(quiet=True)
            rows.append(('tagpipe host-if, GRO ' + gro, [r for r in runs if r]))
    finally:
        s.finish(quiet=True)
    return rows


def sim_rows():
    """One tagpipe-fwd, two net_aqc_sim ports cabled to each other, switch
    port 1 of each a host interface in A and B (one subnet): TSO in the
    chip model, no second process, no veth."""
    t = '%d' % (os.getpid() % 100000)
    ns = {'a': 'thostSa' + t, 'b': 'thostSb' + t}
    dev = {'a': 'thosta_' + t, 'b': 'thostb_' + t}
    rows = []
    try:
        for n in ns.values():
            ht.sh('ip', 'netns', 'add', n)
        for gro in ('on', 'off'):
            h = Fwd('sim', None, None, '0:1=%s,1:1=%s' % (dev['a'], dev['b']), 0,
                    extra=['--gro', gro],
                    vdevs=['net_aqc_sim0,wire=peer,peer=net_aqc_sim1',
                           'net_aqc_sim1,wire=peer,peer=net_aqc_sim0'])
            try:
                if not h.wait_for('packet forwarding - ports=2'):
                    continue
                for k, a in (('a', '192.0.2.1/24'), ('b', '192.0.2.2/24')):
                    ht.sh('ip', 'link', 'set', dev[k], 'netns', ns[k])
                    ht.sh('ip', '-n', ns[k], 'addr', 'add', a, 'dev', dev[k])
                    ht.sh('ip', '-n', ns[k], 'link', 'set', dev[k], 'up')
                    ht.sh('ip', '-n', ns[k], 'link', 'set', 'lo', 'up')
                runs = [one_run(ns['a'], ns['b'], '192.0.2.2', dev['b']) for _ in range(RUNS)]
            finally:
                h.finish(quiet=True)
            rows.append(('host-if, net_aqc_sim TSO, GRO ' + gro, [r for r in runs if r]))
    finally:
        for n in ns.values():
            ht.sh('ip', 'netns', 'del', n, check=False)
    return rows


def kernel_rows():
    t = '%d' % (os.getpid() % 100000)
    ns = {'a': 'thostKa' + t, 'w': 'thostKw' + t, 'b': 'thostKb' + t}
    rows = []
    try:
        for n in ns.values():
            ht.sh('ip', 'netns', 'add', n)
        ht.sh('ip', '-n', ns['a'], 'link', 'add', 'thka', 'type', 'veth', 'peer', 'name',
              'thkwa', 'netns', ns['w'])
        ht.sh('ip', '-n', ns['b'], 'link', 'add', 'thkb', 'type', 'veth', 'peer', 'name',
              'thkwb', 'netns', ns['w'])
        for n, dev, addr in ((ns['a'], 'thka', '192.0.2.1/24'), (ns['w'], 'thkwa', '192.0.2.254/24'),
                             (ns['w'], 'thkwb', '198.51.100.254/24'),
                             (ns['b'], 'thkb', '198.51.100.1/24')):
            ht.sh('ip', '-n', n, 'addr', 'add', addr, 'dev', dev)
            ht.sh('ip', '-n', n, 'link', 'set', dev, 'up')
            ht.sh('ip', '-n', n, 'link', 'set', 'lo', 'up')
        ht.sh('ip', '-n', ns['a'], 'route', 'add', 'default', 'via', '192.0.2.254')
        ht.sh('ip', '-n', ns['b'], 'route', 'add', 'default', 'via', '198.51.100.254')
        ht.sh('ip', 'netns', 'exec', ns['w'], 'sysctl', '-qw', 'net.ipv4.ip_forward=1')
        # The W -> B hop carries MTU-sized frames with full checksums, as a wire.
        ht.sh('ip', 'netns', 'exec', ns['w'], 'ethtool', '-K', 'thkwb', 'tso', 'off',
              'gso', 'off', 'tx', 'off', check=False)
        for gro in ('on', 'off'):
            ht.sh('ip', 'netns', 'exec', ns['b'], 'ethtool', '-K', 'thkb', 'gro', gro,
                  check=False)
            runs = [one_run(ns['a'], ns['b'], '198.51.100.1', 'thkb') for _ in range(RUNS)]
            rows.append(('kernel veth, GRO ' + gro, [r for r in runs if r]))
    finally:
        for n in ns.values():
            ht.sh('ip', 'netns', 'del', n, check=False)
    return rows


def fmt(runs, key, f):
    v = [r[key] for r in runs]
    if not v:
        return '-'
    return ('%s (%s..%s)' % (f % statistics.median(v), f % min(v), f % max(v)))


def main():
    why = ht.can_run()
    if why is not None:
        print('SKIP: ' + why)
        sys.exit(fwdlib.SKIP)
    if not ht.addresses_free():
        print('SKIP: the documentation addresses are in use on this host')
        sys.exit(fwdlib.SKIP)
    topo = ht.Topology()
    try:
        topo.up()
        rows = tagpipe_rows(topo)
    finally:
        topo.down()
    rows += sim_rows()
    rows += kernel_rows()
    with open('/proc/loadavg') as f:
        load = f.read().split()[0]
    print('\nTCP into a Linux stack, %d s per run, median (min..max) of %d runs, %d CPUs, '
          'load average %s at the end:' % (SECONDS, RUNS, os.cpu_count(), load))
    print('%-36s %-24s %-28s %-26s' % ('path', 'Gbit/s', 'CPU-s per Gbit (sys+irq)',
                                       'receiver packets/s'))
    for name, runs in rows:
        print('%-36s %-24s %-28s %-26s' % (name, fmt(runs, 'gbps', '%.3f'),
                                           fmt(runs, 'cpu_per_gbit', '%.2f'),
                                           fmt(runs, 'pps', '%.0f')))
    med = {name: {k: statistics.median([r[k] for r in runs]) for k in ('gbps', 'cpu_per_gbit')}
           for name, runs in rows if runs}
    for a, b in (('host-if, net_aqc_sim TSO, GRO on', 'kernel veth, GRO on'),
                 ('host-if, net_aqc_sim TSO, GRO on', 'host-if, net_aqc_sim TSO, GRO off'),
                 ('tagpipe host-if, GRO on', 'tagpipe host-if, GRO off')):
        x, y = med.get(a), med.get(b)
        if x and y and y['gbps'] and y['cpu_per_gbit']:
            print('%s / %s: throughput %.2f, CPU per Gbit %.2f' %
                  (a, b, x['gbps'] / y['gbps'], x['cpu_per_gbit'] / y['cpu_per_gbit']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
