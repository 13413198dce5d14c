#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Real TCP through tagpipe-fwd's host interfaces (--host-if), both ways.

Topology (hostif_topo.py): tagpipe-fwd H owns a conduit (net_af_packet on
a veth) and gives switch ports 1 and 2 the interfaces lanA and lanB, moved
into namespaces A and B; a second tagpipe-fwd S on the other end of the
wire plays the switch and hands the same ports to namespace W, which
routes between them. Every frame on the wire carries its ocelot-8021q tag.

Runs, each with iperf3 for a few seconds:
  - GRO on: A -> B over IPv4, B -> A (iperf3 -R), A -> B over IPv6;
  - GRO off in H: A -> B over IPv4;
  - one tagpipe-fwd with two net_aqc_sim ports cabled to each other
    (wire=peer), switch port 1 of each a host interface: the chip model
    does TSO, so GSO packets from the host leave as TSO packets (checked:
    all of them), and B gets merged packets.
Checks: each transfer completes without an iperf3 error; the frames on the
wire carry the tag of port 1 or 2 and are never larger than a tagged MTU
frame; with GRO on, lanB receives packets larger than its MTU (tcpdump in
B, the kernel's counters) and H wrote GSO packets, with GRO off none;
tagpipe's counters add up (pipeline conservation, PASS frames = frames
written to the host interfaces, conduit TX = frames sent for the host,
per interface frames = sent + tag drops + TX full) and agree with the
kernel's (lanB's RX packets and bytes = what H wrote, read with H
stopped); every mbuf is back at exit. Skipped (77) without root,
/dev/net/tun, namespaces or iperf3.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import hostif_topo as ht  # noqa: E402

SECONDS = 3


def host_if_stats(text):
    """{name: {counter: value}} of the last 'Host interface' blocks."""
    res = {}
    for blk in re.split(r'\n\s*#+ Host interface ', text)[1:]:
        m = re.match(r'(\S+) \(port (\d+), switch port (\d+)\)', blk)
        if m is None:
            continue
        body = blk.split('\n\n')[0]
        d = {k: int(v) for k, v in re.findall(r'([A-Z][A-Za-z-]+): (\d+)', body)}
        d['drops'] = {k: int(v) for k, v in re.findall(r' ([a-z_]+)=(\d+)', body)}
        d['switch_port'] = int(m.group(3))
        res[m.group(1)] = d
    return res


class Fwd:
    """One tagpipe-fwd of the topology."""

    def __init__(self, name, ns, iface, host_if, main_lcore, extra=(), interactive=False,
                 vdevs=None):
        self.eal = ['-l', '0-1', '--main-lcore', str(main_lcore), '--no-huge',
                    '--no-shconf', '-m', '512', '--no-pci',
                    '--file-prefix=tpthost%s_%d' % (name, os.getpid())]
        for v in vdevs or ['net_af_packet0,iface=%s' % iface]:
            self.eal += ['--vdev', v]
        app = ['--forward-mode', 'pipeline', '--stats-period', '0']
        for p in range(len(vdevs or [iface])):
            app += ['--port-tagger', '%d:%s' % (p, ht.TAGGER)]
        app += ['--host-if', host_if] + list(extra)
        if interactive:
            app = ['-i'] + app
        cmd = (['ip', 'netns', 'exec', ns] if ns else []) + \
            [fwdlib.fwd_binary()] + self.eal + ['--'] + app
        print('$', ' '.join(cmd), flush=True)
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE if interactive else None,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out, self.err = fwdlib._Drain(self.p.stdout), fwdlib._Drain(self.p.stderr)

    def send(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()

    def wait_for(self, what, timeout=30):
        return fwdlib._wait_until(self.out, lambda t: what in t, timeout)

    def finish(self, quit_cmd=False, quiet=False):
        if quit_cmd:
            try:
                self.send('quit')
                self.p.stdin.close()
            except (BrokenPipeError, OSError):
                pass
        else:
            self.p.send_signal(signal.SIGINT)
        try:
            self.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        fwdlib.cleanup_runtime(self.eal)
        text, err = self.out.text(), self.err.text()
        if not quiet:
            print(text[-6000:])
            print(err[-3000:], file=sys.stderr)
        return text


def iperf(topo, c, what, server_side, client_side, addr, extra=()):
    ns_s, ns_c = topo.ns[server_side], topo.ns[client_side]
    srv = subprocess.Popen(['ip', 'netns', 'exec', ns_s, 'iperf3', '-s', '-1', '-B', addr],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ht.wait_listening(ns_s, 5201)
        r = ht.sh('ip', 'netns', 'exec', ns_c, 'iperf3', '-c', addr, '-t', str(SECONDS),
                  '-J', '--connect-timeout', '5000', *extra, check=False,
                  timeout=SECONDS + 60)
    finally:
        srv.kill()
        srv.wait()
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = {'error': 'no JSON from iperf3: ' + r.stderr.strip()}
    c.eq(what + ': iperf3 error', j.get('error'), None)
    recv = j.get('end', {}).get('sum_received', {})
    c.true('%s: transfer completed (%s bytes)' % (what, recv.get('bytes')),
           recv.get('bytes', 0) > 0)
    return (recv.get('bits_per_second') or 0) / 1e9


def tcpdump(ns, dev, count, extra=()):
    """Start tcpdump on dev; returns the process (its stdout: one line per
    frame)."""
    pre = ['ip', 'netns', 'exec', ns] if ns else []
    return subprocess.Popen(pre + ['timeout', str(SECONDS + 10), 'tcpdump', '-i', dev,
                                   '-nn', '-l', '-c', str(count)] + list(extra),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def check_fwd_counters(c, who, text, ifs):
    """Identities of one tagpipe-fwd's final report."""
    c.eq(who + ': mbufs in use after shutdown', fwdlib.mempool_in_use(text), 0)
    hs = host_if_stats(text)
    c.eq(who + ': host interfaces reported', sorted(hs), sorted(ifs))
    pls = fwdlib.pipeline_stats(text)
    ports = fwdlib.last_port_stats(text)
    fs = fwdlib.fwd_stats(text)
    if not pls or not hs or not ports or not fs:
        c.true(who + ': final statistics printed', False)
        return hs
    pl = pls[-1]
    c.eq(who + ': rx = pass + tx + redirect + drop + aborted + held',
         pl['pass'] + pl['tx'] + pl['redirect'] + pl['drop'] + pl['aborted'] + pl['held'],
         pl['rx'])
    # Forward stats in pipeline mode are the pipeline's own counters
    # (docs/counters.md): a stream's Passed-frames are its PASS frames,
    # whatever took them.
    passed = sum(f[7] for f in fs)
    to_host = sum(h['To-host-frames'] + h['To-host-drop-frames'] for h in hs.values())
    c.eq(who + ': PASS frames = frames to the host interfaces', to_host, pl['pass'])
    c.eq(who + ': every PASS frame had a host interface (Passed-frames)', passed, to_host)
    sent = sum(h['From-host-sent'] for h in hs.values())
    c.eq(who + ': conduit TX packets = frames sent for the host + TX/REDIRECT verdicts',
         sum(p['tx'] for p in ports.values()), sent + pl['tx'] + pl['redirect'])
    for name, h in hs.items():
        c.eq('%s %s: from-host frames = sent + tag drops + TX full' % (who, name),
             h['From-host-frames'], h['From-host-sent'] + h['From-host-tag-drop'] +
             h['From-host-tx-full'])
        c.true('%s %s: from-host frames >= packets read less drops (%d >= %d - %d)' %
               (who, name, h['From-host-frames'], h['From-host-packets'],
                sum(h['drops'].values())),
               h['From-host-frames'] >= h['From-host-packets'] - sum(h['drops'].values()))
        c.eq('%s %s: host input dropped' % (who, name), sum(h['drops'].values()), 0)
        c.eq('%s %s: read errors' % (who, name), h['Read-errors'], 0)
    return hs


def run_h(c, topo, gro_on, switch):
    """One run of H (interactive, so it can stop before the kernel's
    counters are read); returns figures."""
    tag = 'GRO on' if gro_on else 'GRO off'
    h = Fwd('H', None, topo.conduit, topo.host_if_option(), 0,
            extra=['--gro', 'on' if gro_on else 'off'], interactive=True)
    res = {'gro': gro_on}
    try:
        if not h.wait_for('switch port 2\n'):
            c.true(tag + ': H made its host interfaces', False)
            return res
        topo.attach_hosts()
        h.send('start')
        if not h.wait_for('packet forwarding - ports=1'):
            c.true(tag + ': H started', False)
            return res
        dump_b = tcpdump(topo.ns[2], topo.lan[2], 400, ['tcp'])
        dump_w = tcpdump(None, topo.conduit, 200, ['-e']) if gro_on else None
        res['a_to_b'] = iperf(topo, c, tag + ' A->B IPv4', 2, 1, ht.SIDES[2][0][0])
        lens = [int(x) for x in re.findall(r'length (\d+)', dump_b.communicate()[0])]
        res['max_len'] = max(lens) if lens else 0
        if dump_w is not None:
            wire = dump_w.communicate()[0].splitlines()
            vids = [re.search(r'vlan (\d+)', ln) for ln in wire]
            c.true('wire: %d frames seen, each tagged for port 1 or 2 (VID 3073/3074)' %
                   len(wire), len(wire) > 0 and
                   all(v is not None and v.group(1) in ('3073', '3074') for v in vids))
            flen = [int(m.group(1)) for m in
                    (re.search(r'length (\d+):', ln) for ln in wire) if m]
            c.true('wire: no frame above a tagged 1500-byte frame (max %s)' %
                   (max(flen) if flen else None), flen and max(flen) <= 1514 + ht.TAG_LEN)
        if gro_on:
            res['b_to_a'] = iperf(topo, c, tag + ' B->A IPv4 (-R)', 2, 1,
                                  ht.SIDES[2][0][0], ['-R'])
            res['v6'] = iperf(topo, c, tag + ' A->B IPv6', 2, 1, ht.SIDES[2][1][0])
        h.send('stop')
        h.wait_for('Telling cores to stop... Done.')
        time.sleep(0.2)
        kb, jb = topo.link_stats(topo.ns[2], topo.lan[2])
        ka, ja = topo.link_stats(topo.ns[1], topo.lan[1])
    finally:
        text = h.finish(quit_cmd=True)
    c.eq(tag + ': H exit status', h.p.returncode, 0)
    hs = check_fwd_counters(c, tag + ' H', text, [topo.lan[1], topo.lan[2]])
    b, a = hs.get(topo.lan[2]), hs.get(topo.lan[1])
    if b is None or a is None:
        return res
    # The kernel's view of what H wrote, read with H stopped.
    c.eq(tag + ': lanB RX packets (kernel) = H wrote to lanB', kb['rx']['packets'],
         b['To-host-packets'])
    c.eq(tag + ': lanB RX bytes (kernel) = H wrote to lanB', kb['rx']['bytes'],
         b['To-host-bytes'])
    c.eq(tag + ': lanA RX packets (kernel) = H wrote to lanA', ka['rx']['packets'],
         a['To-host-packets'])
    c.true(tag + ': lanA TX packets (kernel) >= H read from lanA (%d >= %d)' %
           (ka['tx']['packets'], a['From-host-packets']),
           ka['tx']['packets'] >= a['From-host-packets'])
    c.eq(tag + ': lanA/lanB MTU = conduit MTU 1500 - tag', (ja['mtu'], jb['mtu']),
         (1500 - ht.TAG_LEN, 1500 - ht.TAG_LEN))
    avg = kb['rx']['bytes'] / max(kb['rx']['packets'], 1)
    res['avg_rx'] = avg
    res['frames_per_pkt'] = b['To-host-frames'] / max(b['To-host-packets'], 1)
    mss = 1500 - ht.TAG_LEN - 40
    if gro_on:
        c.true('GRO on: H wrote GSO packets to lanB (%d)' % b['To-host-GSO'],
               b['To-host-GSO'] > 0)
        c.true('GRO on: lanB received packets above its MTU (tcpdump max TCP length %d '
               '> MSS %d)' % (res['max_len'], mss), res['max_len'] > mss)
        c.true('GRO on: lanB average RX packet %.0f bytes > a full frame %d' %
               (avg, 1500 - ht.TAG_LEN + 14), avg > 1500 - ht.TAG_LEN + 14)
        c.true('GRO on: lanA got GSO packets too (ACK-only traffic merges rarely; '
               'B->A data did: %d)' % a['To-host-GSO'], a['To-host-GSO'] > 0)
    else:
        c.eq('GRO off: H wrote no GSO packet to lanB', b['To-host-GSO'], 0)
        c.true('GRO off: lanB packets never above the MSS (max %d)' % res['max_len'],
               0 < res['max_len'] <= mss)
        c.eq('GRO off: frames per packet written', b['To-host-frames'], b['To-host-packets'])
    c.true(tag + ': lanA sent GSO packets that H segmented (%d)' % a['From-host-GSO'],
           a['From-host-GSO'] > 0)
    return res


def run_sim(c):
    """One tagpipe-fwd, two net_aqc_sim ports cabled to each other
    (wire=peer), switch port 1 of each a host interface: tA in namespace
    A, tB in B, one subnet. The chip model does TSO, so what the host
    sends leaves as one TSO packet per GSO packet; B gets merged packets."""
    t = '%d' % (os.getpid() % 100000)
    ns = {'a': 'thostSa' + t, 'b': 'thostSb' + t}
    dev = {'a': 'thosta_' + t, 'b': 'thostb_' + t}
    addr = {'a': '192.0.2.1', 'b': '192.0.2.2'}
    res = {'sim': True}
    for n in ns.values():
        ht.sh('ip', 'netns', 'add', n)
    h = None
    try:
        h = Fwd('sim', None, None, '0:1=%s,1:1=%s' % (dev['a'], dev['b']), 0,
                interactive=True,
                vdevs=['net_aqc_sim0,wire=peer,peer=net_aqc_sim1',
                       'net_aqc_sim1,wire=peer,peer=net_aqc_sim0'])
        if not h.wait_for(dev['b'] + ': port 1 switch port 1\n'):
            c.true('sim: host interfaces made', False)
            return res
        for k in ('a', 'b'):
            ht.sh('ip', 'link', 'set', dev[k], 'netns', ns[k])
            ht.sh('ip', '-n', ns[k], 'addr', 'add', addr[k] + '/24', 'dev', dev[k])
            ht.sh('ip', '-n', ns[k], 'link', 'set', dev[k], 'up')
            ht.sh('ip', '-n', ns[k], 'link', 'set', 'lo', 'up')
        h.send('start')
        if not h.wait_for('packet forwarding - ports=2'):
            c.true('sim: started', False)
            return res
        topo = type('T', (), {'ns': {1: ns['a'], 2: ns['b']}})
        res['a_to_b'] = iperf(topo, c, 'sim A->B IPv4', 2, 1, addr['b'])
        h.send('stop')
        h.wait_for('Telling cores to stop... Done.')
        time.sleep(0.2)
        r = ht.sh('ip', '-n', ns['b'], '-s', '-j', 'link', 'show', dev['b'])
        kb = json.loads(r.stdout)[0]['stats64']
    finally:
        text = h.finish(quit_cmd=True) if h is not None else ''
        for n in ns.values():
            ht.sh('ip', 'netns', 'del', n, check=False)
    c.eq('sim: exit status', h.p.returncode, 0)
    hs = check_fwd_counters(c, 'sim', text, [dev['a'], dev['b']])
    a, b = hs.get(dev['a']), hs.get(dev['b'])
    if a is None or b is None:
        return res
    c.true('sim: tA GSO packets went to the NIC\'s TSO (%d of %d)' %
           (a['From-host-TSO'], a['From-host-GSO']),
           a['From-host-TSO'] > 0 and a['From-host-TSO'] == a['From-host-GSO'])
    c.true('sim: tB got GSO packets (%d)' % b['To-host-GSO'], b['To-host-GSO'] > 0)
    c.eq('sim: tB RX packets (kernel) = written to tB', kb['rx']['packets'],
         b['To-host-packets'])
    c.eq('sim: tB RX bytes (kernel) = written to tB', kb['rx']['bytes'], b['To-host-bytes'])
    res['frames_per_pkt'] = b['To-host-frames'] / max(b['To-host-packets'], 1)
    res['avg_rx'] = kb['rx']['bytes'] / max(kb['rx']['packets'], 1)
    return res


def main():
    why = ht.can_run()
    if why is not None:
        print('SKIP: ' + why)
        sys.exit(fwdlib.SKIP)
    if not ht.addresses_free():
        print('SKIP: the documentation addresses are in use on this host')
        sys.exit(fwdlib.SKIP)
    if subprocess.run(['which', 'tcpdump'], capture_output=True).returncode != 0:
        print('SKIP: tcpdump missing')
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    topo = ht.Topology()
    results = []
    s = None
    try:
        topo.up()
        # S plays the switch: its forwarding lcore on CPU 0, H's on 1.
        s = Fwd('S', topo.ns_w, topo.wire, topo.switch_if_option(), 1)
        if not s.wait_for('packet forwarding - ports=1'):
            c.true('S started', False)
        else:
            topo.attach_switch()
            for gro_on in (True, False):
                results.append(run_h(c, topo, gro_on, s))
        results.append(run_sim(c))
    finally:
        text = s.finish() if s is not None else ''
        topo.down()
    if s is not None:
        c.eq('S exit status', s.p.returncode, 0)
        check_fwd_counters(c, 'S', text, [topo.sw[1], topo.sw[2]])
    print('\niperf3 through host interfaces (%d s each; two tagpipe-fwd on 2 shared CPUs):'
          % SECONDS)
    for r in results:
        if r.get('sim'):
            print('  net_aqc_sim peers, TSO: A->B %.3f Gbit/s  tB avg RX packet %.0f B, '
                  '%.1f frames/packet' % (r.get('a_to_b') or 0, r.get('avg_rx', 0),
                                          r.get('frames_per_pkt', 0)))
            continue
        print('  GRO %-3s A->B %.3f Gbit/s%s  lanB avg RX packet %.0f B, %.1f frames/packet'
              % ('on' if r['gro'] else 'off', r.get('a_to_b') or 0,
                 ('  B->A %.3f  IPv6 %.3f' % (r.get('b_to_a') or 0, r.get('v6') or 0))
                 if r['gro'] else '', r.get('avg_rx', 0), r.get('frames_per_pkt', 0)))
    c.exit()


if __name__ == '__main__':
    main()
