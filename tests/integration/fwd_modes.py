#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Each tagpipe-fwd forwarding mode moves the expected frames between two
net_pcap ports, driven through the -i prompt; 'show port stats' must match
the frames sent. Expected outputs are computed here with scapy, from the
inputs, never taken from tagpipe-fwd's own output."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

from scapy.all import Ether, IP, UDP, Raw, Dot1Q, Dot1AD  # noqa: E402

DEMO = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
PEER1 = '02:00:00:00:00:11'     # --eth-peer 1,...; port 0 keeps the default
PEER0 = '02:00:00:00:00:00'     # testpmd-style default: 02:00:00:00:00:<port>
TXPKTS = 100


def mac_bytes(s):
    return bytes(int(x, 16) for x in s.split(':'))


def set_macs(f, dst, src):
    return mac_bytes(dst) + mac_bytes(src) + f[12:]


def swap_macs(f):
    return f[6:12] + f[0:6] + f[12:]


def port1_input():
    """A few UDP frames of different sizes, for the 1 -> 0 direction."""
    frames = []
    for i, n in enumerate((18, 100, 500, 1000, 1472)):
        p = (Ether(src='00:00:5e:00:53:%02x' % (i + 1), dst='00:00:5e:00:53:f0') /
             IP(src='192.0.2.1', dst='192.0.2.2', id=i) /
             UDP(sport=1000 + i, dport=2000) / Raw(bytes([i]) * n))
        frames.append(bytes(p))
    # Tagged frames: pipeline mode strips the tags and must put them back
    # (802.1Q; 802.1ad outer + 802.1Q inner, the default TPIDs).
    frames.append(bytes(Ether(src='00:00:5e:00:53:10', dst='00:00:5e:00:53:f0') /
                        Dot1Q(vlan=100) / IP(src='192.0.2.1', dst='192.0.2.2', id=7) /
                        UDP(sport=3000, dport=2000) / Raw(b'v' * 200)))
    frames.append(bytes(Ether(src='00:00:5e:00:53:11', dst='00:00:5e:00:53:f0') /
                        Dot1AD(vlan=200) / Dot1Q(vlan=300) /
                        IP(src='192.0.2.1', dst='192.0.2.2', id=8) /
                        UDP(sport=3001, dport=2000) / Raw(b'q' * 300)))
    return frames


def txonly_frame(dst, src):
    """What txonly sends: scapy computes the lengths and the IP checksum."""
    p = (Ether(dst=dst, src=src) /
         IP(src='198.18.0.1', dst='198.18.0.2', ttl=64, id=0, flags=0) /
         UDP(sport=9, dport=9, chksum=0) / Raw(bytes(TXPKTS - 42)))
    b = bytes(p)
    assert len(b) == TXPKTS, len(b)
    return b


# Port kind: net_pcap, or the AQC chip model with its wire on pcap files
# (--ports aqc, optionally --model aqc113 for the A2 generation): the same
# frames must come out either way.
PORTS = 'pcap'
MODEL = ''


def vdevs(tmp, in1):
    if PORTS == 'aqc':
        fmt = 'net_aqc_sim%d,wire=pcap,rx_pcap=%s,tx_pcap=%s'
        if MODEL:
            fmt += ',model=' + MODEL
    else:
        fmt = 'net_pcap%d,rx_pcap=%s,tx_pcap=%s'
    return [fmt % (0, DEMO, os.path.join(tmp, 'out0.pcap')),
            fmt % (1, in1, os.path.join(tmp, 'out1.pcap'))]


def check_common(c, name, rc, out, err):
    c.eq(name + ': exit status', rc, 0)
    c.eq(name + ': mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
    c.true(name + ': no error or leak reported',
           'tagpipe-fwd: error' not in err and 'LEAK' not in out)


def run_mode(c, tmp, mode, in0, in1_path, in1):
    d = os.path.join(tmp, mode)
    os.mkdir(d)
    app = ['--eth-peer', '1,' + PEER1, '--txpkts', str(TXPKTS)]
    if mode != 'mac':
        app += ['--forward-mode', mode]
    def consumed(text):
        st = fwdlib.last_port_stats(text)
        done = (0 in st and 1 in st and st[0]['rx'] == len(in0) and
                st[1]['rx'] == len(in1))
        return done and (mode != 'txonly' or (st[0]['tx'] > 0 and st[1]['tx'] > 0))

    cmds = [('show port info all', 0.1)]
    if mode == 'mac':
        cmds.append(('set fwd mac', 0.1))
    def settled(text):
        # after stop, the TX rings drain and counters can still move (the
        # A2 firmware publishes its statistics periodically): compare the
        # pcaps with counters that held still for one look
        seen = fwdlib.port_stats(text[text.find('Telling cores to stop'):])
        last = {}
        for port, st in reversed(seen):
            last.setdefault(port, []).append(st)
        return all(len(v) >= 2 and v[0] == v[1] for v in last.values()) and len(last) == 2

    cmds += [('start', consumed), ('stop', 0.1), ('show port stats all', settled)]
    if mode == 'io':
        cmds += [('show port xstats 1', 0.1), ('clear stats', 0.1),
                 ('show port stats 0', 0.1)]
    cmds.append(('quit', 0))
    rc, out, err = fwdlib.run_prompt(
        fwdlib.eal_args('tpfwd_' + mode, vdevs(d, in1_path)), app, cmds)
    print(out)
    print(err, file=sys.stderr)
    check_common(c, mode, rc, out, err)
    macs = fwdlib.port_macs(out)
    c.eq(mode + ': show port info lists both ports', sorted(macs), [0, 1])
    after = out[out.find('Telling cores to stop'):]
    if mode == 'io':   # the last look before 'clear stats'
        after = after[:after.find('tagpipe> clear stats')]
    stats = fwdlib.last_port_stats(after)
    c.true(mode + ': show port stats printed both ports', sorted(stats) == [0, 1])
    if sorted(stats) != [0, 1] or sorted(macs) != [0, 1]:
        return
    s0, s1 = stats[0], stats[1]
    out0 = fwdlib.read_pcap(os.path.join(d, 'out0.pcap'))
    out1 = fwdlib.read_pcap(os.path.join(d, 'out1.pcap'))

    c.eq(mode + ': port 0 RX-packets', s0['rx'], len(in0))
    c.eq(mode + ': port 0 RX-bytes', s0['rx_bytes'], sum(map(len, in0)))
    c.eq(mode + ': port 1 RX-packets', s1['rx'], len(in1))
    c.eq(mode + ': port 1 RX-bytes', s1['rx_bytes'], sum(map(len, in1)))
    c.eq(mode + ': port 0 TX-packets = frames in out0.pcap', s0['tx'], len(out0))
    c.eq(mode + ': port 1 TX-packets = frames in out1.pcap', s1['tx'], len(out1))
    c.eq(mode + ': port 0 TX-bytes', s0['tx_bytes'], sum(map(len, out0)))
    c.eq(mode + ': port 1 TX-bytes', s1['tx_bytes'], sum(map(len, out1)))

    if mode == 'io':
        want1, want0 = in0, in1
    elif mode == 'mac':
        want1 = [set_macs(f, PEER1, macs[1]) for f in in0]
        want0 = [set_macs(f, PEER0, macs[0]) for f in in1]
    elif mode == 'macswap':
        want1 = [swap_macs(f) for f in in0]
        want0 = [swap_macs(f) for f in in1]
    elif mode == 'rxonly':
        want1, want0 = [], []
    else:
        c.true('txonly: sent something on port 0', len(out0) > 0)
        c.true('txonly: sent something on port 1', len(out1) > 0)
        want0 = [txonly_frame(PEER0, macs[0])] * len(out0)
        want1 = [txonly_frame(PEER1, macs[1])] * len(out1)
    c.eq(mode + ': out1.pcap frames', len(out1), len(want1))
    c.true(mode + ': out1.pcap bytes as expected', out1 == want1)
    c.eq(mode + ': out0.pcap frames', len(out0), len(want0))
    c.true(mode + ': out0.pcap bytes as expected', out0 == want0)

    fs = fwdlib.fwd_stats(out)
    c.true(mode + ': stop printed both streams', len(fs) >= 2)
    for (rxp, rxq, txp, txq, rx, tx, dropped, passed) in fs[:2]:
        what = '%s: stream %u/%u -> %u/%u' % (mode, rxp, rxq, txp, txq)
        if mode == 'txonly':
            c.eq(what + ': every received frame freed', dropped, rx)
        else:
            c.eq(what + ': RX = TX + Dropped + Passed', rx, tx + dropped + passed)
    if mode == 'io':
        m = re.search(r'NIC extended statistics for port 1\s.*?rx_good_packets: (\d+).*?'
                      r'tx_good_packets: (\d+)', after, re.S)
        c.eq('io: show port xstats 1: rx_good_packets, tx_good_packets',
             (int(m.group(1)), int(m.group(2))) if m else None, (len(in1), len(in0)))
        cleared = fwdlib.port_stats(out[out.find('tagpipe> clear stats'):])
        c.eq('io: stats after clear stats', cleared[0][1] if cleared else None,
             {k: 0 for k in s0})


def flows(frames):
    """Frames grouped by flow (VLAN IDs + IPv4/IPv6 addresses + TCP/UDP
    ports; other IP frames by address pair, the rest by MAC pair), each
    group in order: what GRO and GSO must preserve. Other IP frames are not
    grouped with non-IP ones of the same MACs: RSS puts them on different
    queues (IP hash vs queue 0), whose relative order nothing keeps."""
    from scapy.all import TCP as _TCP, Dot1Q, IPv6 as _IPv6
    groups = {}
    for f in frames:
        p = Ether(f)
        key = tuple(l.vlan for l in p.iterpayloads() if isinstance(l, Dot1Q))
        l4 = p[_TCP] if _TCP in p else (p[UDP] if UDP in p else None)
        l3 = p[IP] if IP in p else (p[_IPv6] if _IPv6 in p else None)
        if l4 is not None and hasattr(l4.underlayer, 'src'):
            key += (l4.name, l4.underlayer.src, l4.underlayer.dst, l4.sport, l4.dport)
        elif l3 is not None:
            key += ('ip', l3.src, l3.dst)
        else:
            key += ('other', p.src, p.dst)
        groups.setdefault(key, []).append(f)
    return groups


def run_pipeline(c, tmp, case, in0, in1_path, in1):
    """Pipeline mode: 'pass' forwards like io (GRO then GSO back to the
    original frames); 'tx' sends each frame back out its ingress port with
    the MACs swapped; 'redirect' sends every frame to port 0 through a
    redirect map entry; 'drop' (set through the prompt, GRO off) frees all."""
    d = os.path.join(tmp, 'pipeline-' + case)
    os.mkdir(d)
    app = ['--gro', 'on']
    if case == 'tx':
        app += ['--verdict', 'tx']
    elif case == 'redirect':
        app += ['--verdict', 'redirect:7', '--redirect', '7=port:0']
    elif case == 'age':
        app += ['--gro', 'age:2000']
    elif case == 'segs2':
        app += ['--gro-max-segs', '2', '--gro-max-flows', '4']

    def consumed(text):
        st = fwdlib.last_port_stats(text)
        return (0 in st and 1 in st and st[0]['rx'] == len(in0) and
                st[1]['rx'] == len(in1))

    cmds = []
    if case == 'drop':
        cmds += [('set verdict drop', 0.1), ('set gro off', 0.1)]
    cmds += [('start', consumed), ('stop', 0.1), ('show port stats all', 0.1),
             ('show pipeline stats', 0.1)]
    if case == 'pass':
        cmds += [('clear stats', 0.1), ('show pipeline stats', 0.1)]
    if case == 'tx':
        # A second run with no traffic left: its forward stats count that
        # run only (testpmd resets them at start).
        cmds += [('start', 0.3), ('stop', 0.1)]
    cmds.append(('quit', 0))
    name = 'pipeline-' + case
    rc, out, err = fwdlib.run_prompt(
        fwdlib.eal_args('tpfwd_pl_' + case, vdevs(d, in1_path)), app, cmds)
    print(out)
    print(err, file=sys.stderr)
    check_common(c, name, rc, out, err)
    pls = fwdlib.pipeline_stats(out)
    c.true(name + ': show pipeline stats printed', len(pls) >= 1)
    if not pls:
        return
    pl = pls[0]
    total = len(in0) + len(in1)
    c.eq(name + ': pipeline RX-frames', pl['rx'], total)
    c.eq(name + ': rx = pass + tx + redirect + drop + aborted + held',
         pl['pass'] + pl['tx'] + pl['redirect'] + pl['drop'] + pl['aborted'] + pl['held'],
         pl['rx'])
    c.eq(name + ': nothing held after stop', pl['held'], 0)
    out0 = fwdlib.read_pcap(os.path.join(d, 'out0.pcap'))
    out1 = fwdlib.read_pcap(os.path.join(d, 'out1.pcap'))
    if case == 'segs2':
        c.true(name + ': --gro-max-segs 2 caps the merge ratio (%.2f <= 2)' %
               pl['merge_ratio'], 1.0 < pl['merge_ratio'] <= 2.0)
    if case == 'pass':
        c.true(name + ': clear stats zeroes the pipeline counters',
               len(pls) >= 2 and pls[1]['rx'] == 0 and pls[1]['pass'] == 0 and
               pls[1]['gro_in'] == 0)
    if case == 'age':
        c.true(name + ': GRO across bursts merged (merge ratio %.2f > 1)' %
               pl['merge_ratio'], pl['merge_ratio'] > 1.0)
    if case in ('pass', 'segs2', 'age'):
        want0, want1 = in1, in0
        c.eq(name + ': every frame passed', pl['pass'], total)
        c.true(name + ': GRO merged (merge ratio %.2f > 1)' % pl['merge_ratio'],
               pl['merge_ratio'] > 1.0)
        tail = out[out.find('Telling cores to stop'):]
        fs = fwdlib.fwd_stats(tail)
        for (rxp, rxq, txp, txq, rx, tx, dropped, passed) in fs[:2]:
            c.eq('%s: stream %u/%u: RX = TX + Dropped (frames)' % (name, rxp, rxq),
                 rx, tx + dropped)
            c.eq('%s: stream %u/%u: Passed-frames = RX (PASS program)' % (name, rxp, rxq),
                 passed, rx)
        pkts = fwdlib.fwd_stats_passed_packets(tail)[:2]
        c.eq(name + ': Passed-packets = the pipeline\'s PASS verdict packets',
             sum(pkts), pl['verdict_pkts']['pass'])
        seg = fwdlib.pipeline_segmented(out)
        merged = sum(f[7] for f in fs[:2]) - sum(pkts)
        # Every merged PASS packet left split by GSO (--gso on): at least
        # one, at most one per frame GRO saved.
        c.true('%s: Segmented %s counts the merged PASS packets (1..%d)' %
               (name, seg[:1], merged),
               bool(seg) and 1 <= seg[0][0] <= merged and seg[0][1] == 0)
    elif case == 'tx':
        want0, want1 = [swap_macs(f) for f in in0], [swap_macs(f) for f in in1]
        c.eq(name + ': every frame sent back', pl['tx'], total)
        runs = out.split('Telling cores to stop')
        first, second = fwdlib.fwd_stats(runs[1]), fwdlib.fwd_stats(runs[-1])
        c.eq(name + ': first run: streams received every frame',
             sum(f[4] for f in first[:2]), total)
        # (a stream that did nothing is left out, as testpmd does)
        c.eq(name + ': second start reset the forward stats (rx, tx, dropped, passed)',
             [f[4:] for f in second[:2] if f[4:] != (0, 0, 0, 0)], [])
        c.true(name + ': second stop printed the port blocks',
               len(fwdlib.fwd_port_stats(runs[-1])) == 2)
    elif case == 'redirect':
        want0, want1 = in0 + in1, []
        c.eq(name + ': every frame redirected (map key 7 -> port 0)', pl['redirect'], total)
    else:
        want0, want1 = [], []
        c.eq(name + ': every frame dropped', pl['drop'], total)
        c.eq(name + ': GRO off: no merge', pl['gro_out'], pl['gro_in'])
    c.eq(name + ': out0.pcap frame count', len(out0), len(want0))
    c.eq(name + ': out1.pcap frame count', len(out1), len(want1))
    c.true(name + ': out0.pcap has exactly the expected frames',
           sorted(out0) == sorted(want0))
    c.true(name + ': out1.pcap has exactly the expected frames',
           sorted(out1) == sorted(want1))
    c.true(name + ': order kept within every flow',
           flows(out0) == flows(want0) and flows(out1) == flows(want1))


def run_rss(c, tmp, in0, in1_path, in1):
    """--rxq 2 on the AQC model: RSS spreads demo.pcap's flows over both RX
    queues of a port; the streams' counts add up to the frames sent and
    every frame comes out once (pipeline mode)."""
    d = os.path.join(tmp, 'rss')
    os.mkdir(d)

    def consumed(text):
        st = fwdlib.last_port_stats(text)
        return 0 in st and 1 in st and st[0]['rx'] == len(in0) and st[1]['rx'] == len(in1)

    # Two forwarding lcores (both on CPU 1 here): each owns two RX queues
    # and its own TX queue on every port.
    eal = fwdlib.eal_args('tpfwd_rss', vdevs(d, in1_path))
    eal[eal.index('-l'):eal.index('-l') + 2] = ['--lcores', '0@0,1@1,2@1']
    rc, out, err = fwdlib.run_prompt(
        eal, ['--rxq', '2', '--nb-cores', '2', '--forward-mode', 'pipeline'],
        [('start', consumed), ('stop', 0.1), ('quit', 0)])
    print(out)
    print(err, file=sys.stderr)
    check_common(c, 'rss', rc, out, err)
    fs = fwdlib.fwd_stats(out)
    c.eq('rss: four streams (2 ports x 2 queues)',
         sorted((f[0], f[1]) for f in fs), [(0, 0), (0, 1), (1, 0), (1, 1)])
    c.true('rss: two forwarding lcores', 'cores=2 - streams=4' in out)
    c.eq('rss: TX queue per stream = its lcore (stream index mod 2)',
         [f[3] for f in fs[:4]], [0, 1, 0, 1])
    by = {(f[0], f[1]): f for f in fs}
    if len(by) == 4:
        c.true('rss: both RX queues of port 0 got frames (%d, %d)' %
               (by[(0, 0)][4], by[(0, 1)][4]), by[(0, 0)][4] > 0 and by[(0, 1)][4] > 0)
        c.eq('rss: port 0 queues add up', by[(0, 0)][4] + by[(0, 1)][4], len(in0))
        c.eq('rss: port 1 queues add up', by[(1, 0)][4] + by[(1, 1)][4], len(in1))
    out1 = fwdlib.read_pcap(os.path.join(d, 'out1.pcap'))
    c.true('rss: out1.pcap has exactly the frames of port 0', sorted(out1) == sorted(in0))
    c.true('rss: order kept within every flow', flows(out1) == flows(in0))


def run_ring_txonly(c):
    """txonly on two net_ring loopback ports (each port's TX ring is its RX
    ring), stopped with SIGTERM while frames are in flight: shutdown drains
    the rings, so every frame sent is received back (RX = TX per port) and
    no mbuf is left out of the pool."""
    import signal

    def running(text):
        return len(fwdlib.port_stats(text)) >= 2

    rc, out, err = fwdlib.run_batch(
        fwdlib.eal_args('tpfwd_ring', ['net_ring0', 'net_ring1']),
        ['--forward-mode', 'txonly', '--stats-period', '1'], running, signal.SIGTERM)
    print(out)
    print(err, file=sys.stderr)
    check_common(c, 'ring-txonly', rc, out, err)
    c.true('ring-txonly: shutdown drained the RX queues',
           re.search(r'Drained \d+ frames left in RX queues', out) is not None)
    final = fwdlib.last_port_stats(out)
    for p in (0, 1):
        st = final.get(p, {})
        c.true('ring-txonly: port %d sent frames (%s)' % (p, st.get('tx')), st.get('tx', 0) > 0)
        c.eq('ring-txonly: port %d RX = TX after the drain' % p, st.get('rx'), st.get('tx'))


def run_batch(c, tmp, in0, in1_path, in1, sig):
    import signal
    name = 'batch-' + signal.Signals(sig).name
    d = os.path.join(tmp, name)
    os.mkdir(d)
    def two_periods(text):
        return len(fwdlib.port_stats(text)) >= 4

    rc, out, err = fwdlib.run_batch(
        fwdlib.eal_args('tpfwd_' + name, vdevs(d, in1_path)),
        ['--forward-mode', 'io', '--stats-period', '1'], two_periods, sig)
    print(out)
    print(err, file=sys.stderr)
    check_common(c, name, rc, out, err)
    stats = fwdlib.port_stats(out)
    # Periodic blocks (at least 2 in 2.5 s) plus the final pair.
    c.true(name + ': periodic stats printed', len(stats) >= 6)
    final = dict(stats[-2:])
    c.eq(name + ': final port 0 RX', final[0]['rx'], len(in0))
    c.eq(name + ': final port 1 TX', final[1]['tx'], len(in0))
    c.eq(name + ': final port 1 RX', final[1]['rx'], len(in1))
    c.eq(name + ': final port 0 TX', final[0]['tx'], len(in1))
    c.eq(name + ': out1.pcap', fwdlib.read_pcap(os.path.join(d, 'out1.pcap')), in0)


def main():
    import signal
    global PORTS, MODEL
    args = sys.argv[1:]
    if args[:1] == ['--ports']:
        PORTS, args = args[1], args[2:]
    if args[:1] == ['--model']:
        MODEL, args = args[1], args[2:]
    c = fwdlib.Checker()
    in0 = fwdlib.read_pcap(DEMO)
    in1 = port1_input()
    with tempfile.TemporaryDirectory(prefix='tpfwd_modes') as tmp:
        in1_path = os.path.join(tmp, 'in1.pcap')
        fwdlib.write_pcap(in1_path, in1)
        modes = args or ['io', 'mac', 'macswap', 'rxonly', 'txonly',
                                 'pipeline-pass', 'pipeline-segs2', 'pipeline-age',
                                 'pipeline-tx',
                                 'pipeline-redirect', 'pipeline-drop']
        for mode in modes:
            if mode.startswith('pipeline-'):
                run_pipeline(c, tmp, mode[9:], in0, in1_path, in1)
            else:
                run_mode(c, tmp, mode, in0, in1_path, in1)
        if not args and PORTS == 'aqc':
            run_rss(c, tmp, in0, in1_path, in1)
        if not args and PORTS == 'pcap':
            run_ring_txonly(c)
        if not args:
            run_batch(c, tmp, in0, in1_path, in1, signal.SIGINT)
            run_batch(c, tmp, in0, in1_path, in1, signal.SIGTERM)
    c.exit()


if __name__ == '__main__':
    main()
