#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Real TCP through tagpipe-fwd.

Two network namespaces, each with one end of a veth pair; the other ends
stay in this namespace and become net_af_packet ports 0 and 1 of
tagpipe-fwd. Veth offloads are off (TSO, GSO, GRO, TX checksum), so every
frame on the wire is MTU-sized and carries a complete checksum. iperf3 runs
for a few seconds from one namespace to the other, once with io mode and
once with pipeline mode (GRO on, GSO on egress), and the test checks:
the transfer completes, iperf3 reports no error, tagpipe-fwd's counters add
up, and in pipeline mode the GRO merge ratio is well above 1.
Addresses are from the RFC 5737 documentation ranges (a pair this host
does not use) and exist only in those namespaces; the host side of each
veth has no address and answers no ARP (arp_ignore=8). Skipped (77) where namespaces, veth or iperf3 are unavailable.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import hostif_topo  # noqa: E402

SECONDS = 3
# Documentation ranges (RFC 5737); the first pair this host does not use.
ADDR_PAIRS = [('198.51.100.1', '198.51.100.2'), ('203.0.113.1', '203.0.113.2'),
              ('192.0.2.1', '192.0.2.2')]
MIN_MERGE_RATIO = 2.0


def sh(*cmd, check=True, **kw):
    r = subprocess.run(list(cmd), capture_output=True, text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(cmd), r.stderr.strip()))
    return r


def pick_addresses():
    used = sh('ip', '-o', 'addr').stdout
    for a, b in ADDR_PAIRS:
        if (' %s/' % a) not in used and (' %s/' % b) not in used:
            return a, b
    return None


class Topology:
    def __init__(self, addrs):
        self.addrs = addrs
        tag = '%d' % (os.getpid() % 100000)
        self.ns = ['tpA' + tag, 'tpB' + tag]
        self.inner = ['tpai' + tag, 'tpbi' + tag]
        self.outer = ['tpao' + tag, 'tpbo' + tag]
        self.made = []

    def up(self):
        for ns, inner, outer, addr in zip(self.ns, self.inner, self.outer,
                                          self.addrs):
            sh('ip', 'netns', 'add', ns)
            self.made.append(ns)
            sh('ip', 'link', 'add', outer, 'type', 'veth', 'peer', 'name', inner,
               'netns', ns)
            self.made.append(outer)
            for dev, where in ((inner, ['ip', 'netns', 'exec', ns]), (outer, [])):
                # Frames at MTU size with full checksums: no offloads.
                sh(*where, 'ethtool', '-K', dev, 'tso', 'off', 'gso', 'off',
                   'gro', 'off', 'tx', 'off', 'rx', 'off')
            # Nothing but our test traffic: no IPv6 (no ND, no RS).
            sh('sysctl', '-qw', 'net.ipv6.conf.%s.disable_ipv6=1' % outer, check=False)
            # The host stack sees these frames too: it must not answer ARP
            # for its own addresses on them.
            sh('sysctl', '-qw', 'net.ipv4.conf.%s.arp_ignore=8' % outer)
            sh('ip', 'netns', 'exec', ns, 'sysctl', '-qw',
               'net.ipv6.conf.all.disable_ipv6=1', check=False)
            sh('ip', 'link', 'set', outer, 'up')
            sh('ip', '-n', ns, 'addr', 'add', addr + '/24', 'dev', inner)
            sh('ip', '-n', ns, 'link', 'set', inner, 'up')
            sh('ip', '-n', ns, 'link', 'set', 'lo', 'up')

    def down(self):
        for name in reversed(self.made):
            if name in self.ns:
                sh('ip', 'netns', 'del', name, check=False)
            else:
                sh('ip', 'link', 'del', name, check=False)


def can_run():
    if os.geteuid() != 0:
        return 'not root'
    for tool in ('iperf3', 'ip', 'ethtool', 'sysctl'):
        if shutil.which(tool) is None:
            return tool + ' missing'
    probe = 'tpprobe%d' % (os.getpid() % 100000)
    r = sh('ip', 'netns', 'add', probe, check=False)
    if r.returncode != 0:
        return 'network namespaces not allowed: ' + r.stderr.strip()
    sh('ip', 'netns', 'del', probe, check=False)
    return None


def run_mode(c, topo, mode):
    eal = ['-l', '0-1', '--no-huge', '--no-shconf', '-m', '512', '--no-pci',
           '--file-prefix=tpfwd_iperf_%s_%d' % (mode, os.getpid()),
           '--vdev', 'net_af_packet0,iface=%s' % topo.outer[0],
           '--vdev', 'net_af_packet1,iface=%s' % topo.outer[1]]
    app = ['--forward-mode', mode, '--stats-period', '0']
    if mode == 'pipeline':
        app += ['--gro', 'on', '--gso', 'on']
    cmd = [fwdlib.fwd_binary()] + eal + ['--'] + app
    print('$', ' '.join(cmd), flush=True)
    fwd = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = fwdlib._Drain(fwd.stdout), fwdlib._Drain(fwd.stderr)
    server = None
    result = {'mode': mode, 'gbps': None, 'merge': None}
    try:
        if not fwdlib._wait_until(out, lambda t: 'packet forwarding - ports=2' in t, 30):
            c.true(mode + ': tagpipe-fwd started', False)
            return result
        server = subprocess.Popen(['ip', 'netns', 'exec', topo.ns[1], 'iperf3', '-s',
                                   '-1', '-B', topo.addrs[1]], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        hostif_topo.wait_listening(topo.ns[1], 5201)
        r = sh('ip', 'netns', 'exec', topo.ns[0], 'iperf3', '-c', topo.addrs[1],
               '-B', topo.addrs[0],
               '-t', str(SECONDS), '-J', '--connect-timeout', '5000', check=False,
               timeout=SECONDS + 60)
        try:
            j = json.loads(r.stdout)
        except ValueError:
            j = {'error': 'no JSON from iperf3: ' + r.stderr.strip()}
        c.eq(mode + ': iperf3 exit status', r.returncode, 0)
        c.eq(mode + ': iperf3 error', j.get('error'), None)
        recv = j.get('end', {}).get('sum_received', {})
        sent = j.get('end', {}).get('sum_sent', {})
        c.true(mode + ': transfer completed (%s bytes received)' % recv.get('bytes'),
               recv.get('bytes', 0) > 0 and recv.get('bytes') <= sent.get('bytes', 0))
        if recv.get('bits_per_second'):
            result['gbps'] = recv['bits_per_second'] / 1e9
    finally:
        fwd.send_signal(signal.SIGINT)
        try:
            fwd.wait(timeout=60)
        except subprocess.TimeoutExpired:
            fwd.kill()
            fwd.wait()
        if server is not None:
            server.kill()
            server.wait()
        fwdlib.cleanup_runtime(eal)
    text = out.text()
    print(text)
    print(err.text(), file=sys.stderr)
    c.eq(mode + ': tagpipe-fwd exit status', fwd.returncode, 0)
    c.eq(mode + ': mbufs in use after shutdown', fwdlib.mempool_in_use(text), 0)
    fs = fwdlib.fwd_stats(text)
    c.eq(mode + ': two streams reported', len(fs), 2)
    ports = fwdlib.last_port_stats(text)
    for (rxp, rxq, txp, txq, rx, tx, dropped, passed) in fs:
        c.true('%s: stream %u->%u carried traffic (%u frames)' % (mode, rxp, txp, rx), rx > 0)
        c.eq('%s: stream %u->%u: RX = TX + Dropped (frames)' % (mode, rxp, txp),
             rx, tx + dropped)

    # Frames that arrived after the lcores stopped are drained (and freed)
    # at shutdown: they count in the ports' RX but in no stream.
    m = re.search(r'Drained (\d+) frames left in RX queues', text)
    drained = int(m.group(1)) if m else None
    c.true(mode + ': shutdown reported the drained frames (%s)' % drained, m is not None)
    c.eq(mode + ': ports RX-packets = streams RX + drained',
         sum(p['rx'] for p in ports.values()), sum(f[4] for f in fs) + (drained or 0))
    c.eq(mode + ': ports TX-packets = streams TX', sum(p['tx'] for p in ports.values()),
         sum(f[5] for f in fs))
    if mode == 'pipeline':
        pls = fwdlib.pipeline_stats(text)
        c.eq(mode + ': final pipeline stats printed', len(pls), 1)
        if pls:
            pl = pls[0]
            c.eq(mode + ': rx = pass + tx + redirect + drop + aborted + held',
                 pl['pass'] + pl['tx'] + pl['redirect'] + pl['drop'] + pl['aborted'] +
                 pl['held'], pl['rx'])
            c.eq(mode + ': pipeline rx = frames received by the streams',
                 pl['rx'], sum(f[4] for f in fs))
            c.eq(mode + ': every frame passed (PASS program)', pl['pass'], pl['rx'])
            result['merge'] = pl['merge_ratio']
            c.true('%s: GRO merge ratio %.2f well above 1 (>= %.1f)' %
                   (mode, pl['merge_ratio'], MIN_MERGE_RATIO),
                   pl['merge_ratio'] >= MIN_MERGE_RATIO)
    return result


def main():
    why = can_run()
    if why is not None:
        print('SKIP: ' + why)
        sys.exit(fwdlib.SKIP)
    addrs = pick_addresses()
    if addrs is None:
        print('SKIP: every documentation address pair is in use on this host')
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    topo = Topology(addrs)
    results = []
    try:
        topo.up()
        for mode in ('io', 'pipeline'):
            results.append(run_mode(c, topo, mode))
    finally:
        topo.down()
    print('\niperf3 through tagpipe-fwd (%d s, veth + net_af_packet, offloads off):' % SECONDS)
    print('  %-10s %14s %12s' % ('mode', 'throughput', 'merge ratio'))
    for r in results:
        print('  %-10s %14s %12s' % (
            r['mode'], '%.3f Gbit/s' % r['gbps'] if r['gbps'] else '-',
            '%.2f' % r['merge'] if r['merge'] else '-'))
    c.exit()


if __name__ == '__main__':
    main()
