#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Soak: tagpipe-fwd in pipeline mode (edsa + VLAN/QinQ strip, GRO, GSO,
verdict pass) between two net_aqc_sim ports whose chip models inject random
faults while mixed traffic flows: RX write-back DMA errors, corrupted
write-back lengths, late and out-of-order write-back, frames that arrive
damaged, TX engine stalls and link flaps (devargs faults=N, fault_seed=S).

usage: soak_fwd.py SECONDS [SEED] [aqc107|aqc113]   (the chip model, default aqc107)

The traffic is built here: port 0 carries edsa-tagged frames from four
switch ports (TCP/IPv4 trains GRO merges, VLAN-tagged UDP, ICMP, and frames
the pipeline must drop: a bad edsa tag, a truncated IPv4 header, a TCP data
offset past the segment); port 1 carries untagged, 802.1Q and QinQ traffic
(TCP/IPv6 trains, QinQ UDP, ARP, and frames with an IPv4 total length past
the frame). Each port replays its capture (rx_loops) to the other port.

Two runs of tagpipe-fwd:
  1. without faults, a few plays: exact figures - every good frame out of
     the other port, every bad frame dropped by the pipeline, nothing else
     lost; its rate sizes run 2;
  2. with faults, in rounds of as many plays as fit until SECONDS have
     passed.
Checked in both, once the captures are played out and nothing moves:
  - each port: frames the wire delivered (model_pcap_frames_read) = the
    plays x the capture = received (ipackets) + counted as dropped by the
    NIC (ierrors, imissed, model L2-filtered / ring disabled / DMA faults);
  - received = the pipeline's RX frames + the frames left in RX queues;
  - the pipeline: RX = pass + tx + redirect + drop + aborted + held, and
    drop = the sum of its drop reasons;
  - what forwarding handed the NICs = what they report sent, and each NIC's
    sent frames = frames on its wire (MAC counters) + TX errors + frames a
    reset stranded;
  - end to end: every frame put on a wire came out of the other port or
    was counted as dropped with a reason (NIC, pipeline, forwarding);
  - the mempool's in-use count is 0 after shutdown.
Prints the figures; exit 0 when all holds, 1 otherwise, 77 when scapy is
missing."""
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
sys.path.insert(0, os.path.join(HERE, '..', 'gen'))
import fwdlib  # noqa: E402

try:
    from scapy.all import (ARP, ICMP, IP, IPv6, TCP, UDP, Dot1AD, Dot1Q,  # noqa: E402
                           Ether, Raw, conf)
    conf.verb = 0
except ImportError:
    print('SKIP: python3-scapy is not installed (use /usr/bin/python3)')
    sys.exit(77)
import tpgen  # noqa: E402

HOST = '02:00:00:00:00:01'
CPU = '02:00:00:00:00:02'


def edsa_forward(sw_port, tagged=False):
    """An edsa FORWARD tag from switch port sw_port, dev 0 (Linux
    net/dsa/tag_dsa.c: EtherType 0xDADA, two reserved bytes, then the DSA
    word: code FORWARD 3 in bits 31:30, tagged bit 29, port in 23:19)."""
    return bytes([0xDA, 0xDA, 0, 0, 0xC0 | (0x20 if tagged else 0), sw_port << 3, 0, 0])


def tagged(frame, tag):
    return frame[:12] + tag + frame[12:]


def train4(sw, flow, segs, pay):
    base = 1000 + flow * 100000
    return [bytes(Ether(dst=CPU, src=HOST) /
                  IP(src='192.0.2.%d' % (10 + sw), dst='198.51.100.1', id=flow * 64 + i,
                     flags='DF') /
                  TCP(sport=20000 + flow, dport=5201, seq=base + i * pay, ack=1, flags='A',
                      window=65535) /
                  Raw(bytes((flow + i + j) & 0xff for j in range(pay))))
            for i in range(segs)]


def train6(vid, flow, segs, pay):
    base = 7000 + flow * 100000
    return [bytes(Ether(dst=CPU, src=HOST) / Dot1Q(vlan=vid) /
                  IPv6(src='2001:db8::%x' % (16 + flow), dst='2001:db8:1::1', hlim=64) /
                  TCP(sport=30000 + flow, dport=5201, seq=base + i * pay, ack=1, flags='A',
                      window=65535) /
                  Raw(bytes((3 * flow + i + j) & 0xff for j in range(pay))))
            for i in range(segs)]


def port0_frames():
    """(good, malformed, bad): edsa-tagged from switch ports 0-3. Malformed
    frames are forwarded as they are (a switch-tag pipeline forwards what
    it need not parse, as the kernel's bridge does); bad ones the pipeline
    must drop."""
    good, malformed, bad = [], [], []
    for sw in range(4):
        for f in train4(sw, sw, 8, 1200 + 40 * sw):
            good.append(tagged(f, edsa_forward(sw)))
        udp = bytes(Ether(dst=CPU, src=HOST) / Dot1Q(vlan=100 + sw) /
                    IP(src='192.0.2.%d' % (10 + sw), dst='198.51.100.2') /
                    UDP(sport=4000 + sw, dport=53) / Raw(b'q' * (20 + 30 * sw)))
        good.append(tagged(udp, edsa_forward(sw)))
        icmp = bytes(Ether(dst=CPU, src=HOST) / IP(src='192.0.2.%d' % (10 + sw),
                                                   dst='198.51.100.1') / ICMP(id=sw))
        good.append(tagged(icmp, edsa_forward(sw)))
    plain = bytes(Ether(dst=CPU, src=HOST) / IP(src='192.0.2.99', dst='198.51.100.1') /
                  UDP(sport=1, dport=2) / Raw(b'x' * 40))
    # the IPv4 header cut after 10 bytes
    malformed.append(tagged(plain[:24], edsa_forward(1)))
    # TCP data offset 15 words (60 bytes) in a 20-byte segment
    t = bytearray(train4(2, 9, 1, 0)[0])
    t[14 + 20 + 12] = 0xF0
    malformed.append(tagged(bytes(t), edsa_forward(2)))
    # FROM_CPU (command 1) is not a tag a switch sends to the CPU: the
    # kernel's dsa_rcv_ll() refuses it (bad_type)
    bad.append(tagged(plain, bytes([0xDA, 0xDA, 0, 0, 0x40, 1 << 3, 0, 0])))
    # shorter than the tag and an Ethernet header (too_short)
    bad.append(plain[:12] + edsa_forward(0)[:6])
    # an 802.1Q TPID after the tag with its TCI cut (vlan too_short)
    bad.append(tagged(plain[:12] + b'\x81\x00\x00', edsa_forward(3)))
    return good, malformed, bad


def port1_frames():
    good, malformed, bad = [], [], []
    for fl in range(3):
        good += train6(200 + fl, fl, 6, 1000 + 100 * fl)
    for k in range(3):
        good.append(bytes(Ether(dst=CPU, src=HOST) / Dot1AD(vlan=10 + k) / Dot1Q(vlan=300 + k) /
                          IP(src='203.0.113.%d' % (1 + k), dst='198.51.100.3') /
                          UDP(sport=5000 + k, dport=9) / Raw(b'u' * (100 * k + 18))))
    good.append(bytes(Ether(dst='ff:ff:ff:ff:ff:ff', src=HOST) /
                      ARP(op=1, hwsrc=HOST, psrc='203.0.113.1', pdst='203.0.113.254')))
    # IPv4 total length 1000 in a 60-byte frame
    b = bytearray(bytes(Ether(dst=CPU, src=HOST) / IP(src='203.0.113.9', dst='198.51.100.3') /
                        UDP(sport=7, dport=7) / Raw(b'z' * 18)))
    b[16:18] = (1000).to_bytes(2, 'big')
    malformed.append(bytes(b))
    macs = bytes(Ether(dst=CPU, src=HOST))[:12]
    # 802.1Q with its TCI cut; QinQ whose inner tag is cut (vlan too_short)
    bad.append(macs + b'\x81\x00\x00\x05')
    bad.append(macs + b'\x88\xa8\x00\x0a\x81\x00\x01')
    return good, malformed, bad


def interleave(good, other):
    """The other frames spread through the good ones, order otherwise kept."""
    out, step = list(good), max(1, len(good) // (len(other) + 1))
    for i, f in enumerate(other):
        out.insert((i + 1) * step + i, f)
    return out


_XS = re.compile(r'NIC extended statistics for port (\d+)\s*\n((?:[a-z0-9_]+: \d+\n)+)')


def last_xstats(text):
    res = {}
    for m in _XS.finditer(text):
        res[int(m.group(1))] = {k: int(v) for k, v in
                                (ln.split(': ') for ln in m.group(2).splitlines())}
    return res


_REASONS = re.compile(r'Drop-reasons:([^\n]*)')


def last_reasons(text):
    found = _REASONS.findall(text)
    if not found:
        return {}
    return {k: int(v) for k, v in (x.split('=') for x in found[-1].split())}


MODEL = 'aqc107'


def run(c, tag, caps, counts, loops, faults, seed, timeout):
    """One tagpipe-fwd run; returns (figures dict or None, frames/s while
    the captures played, or None when they were done at the first look)."""
    vdevs = []
    for p in (0, 1):
        v = ('net_aqc_sim%d,model=%s,wire=pcap,rx_pcap=%s,tx_pcap=/dev/null,rx_loops=%d,'
             'rx_delay_ms=0' % (p, MODEL, caps[p], loops))
        if faults:
            v += ',faults=%d,fault_seed=%d' % (faults, seed + p)
        vdevs.append(v)
    eal = fwdlib.eal_args('tpsoak_%s' % re.sub(r'\W', '_', tag), vdevs)
    app = ['-i', '--forward-mode', 'pipeline', '--port-tagger', '0:edsa',
           '--gro', 'age:200', '--gso', 'on', '--verdict', 'pass']
    cmd = [fwdlib.fwd_binary()] + eal + ['--'] + app
    print('$', ' '.join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    out, err = fwdlib._Drain(p.stdout), fwdlib._Drain(p.stderr)

    def send(line):
        p.stdin.write(line + '\n')
        p.stdin.flush()

    want = [loops * counts[0], loops * counts[1]]
    t0 = time.monotonic()
    rate, first = None, None
    try:
        send('start')
        last, still = None, 0
        while time.monotonic() - t0 < timeout:
            time.sleep(0.3)
            send('show port xstats all')
            time.sleep(0.2)
            xs = last_xstats(''.join(out.chunks))
            if len(xs) < 2:
                continue
            read = [xs[q].get('model_pcap_frames_read', 0) for q in (0, 1)]
            snap = tuple(sorted((q, k, v) for q in xs for k, v in xs[q].items()))
            if read != want and sum(read) > 0:
                now = time.monotonic()
                if first is None:
                    first = (now, sum(read))
                elif now > first[0]:
                    rate = (sum(read) - first[1]) / (now - first[0])
            # played out and nothing moved for two looks (a TX stall or
            # a flap still running ends within 100 ms)
            if read == want and snap == last:
                still += 1
                if still >= 2:
                    break
            else:
                still = 0
            last = snap
        else:
            c.true('%s: captures played out within %d s' % (tag, timeout), False)
        send('show port xstats all')
        time.sleep(0.3)
        send('stop')
        time.sleep(0.3)
        send('quit')
        p.stdin.close()
        p.wait(timeout=120)
    except BaseException:
        p.kill()
        p.wait()
        raise
    finally:
        fwdlib.cleanup_runtime(eal)
    text, etext = out.text(), err.text()
    c.eq('%s: exit status' % tag, p.returncode, 0)
    if p.returncode != 0:
        print(text[-4000:])
        print(etext[-4000:], file=sys.stderr)
    return figures(c, tag, text, want), rate


def figures(c, tag, text, want):
    xs = last_xstats(text)
    ports = fwdlib.last_port_stats(text)
    pl = fwdlib.pipeline_stats(text)
    pl = pl[-1] if pl else {}
    reasons = last_reasons(text)
    fwd = fwdlib.fwd_stats(text)
    m = re.search(r'Drained (\d+) frames left in RX queues', text)
    drained = int(m.group(1)) if m else None
    f = {'xs': xs, 'ports': ports, 'pl': pl, 'reasons': reasons, 'drained': drained,
         'in_use': fwdlib.mempool_in_use(text)}
    if len(xs) < 2 or len(ports) < 2 or not pl or drained is None or len(fwd) < 2:
        c.true('%s: statistics printed' % tag, False)
        return None
    nic_drop = 0
    for q in (0, 1):
        x, st = xs[q], ports[q]
        wire_drop = (x['model_rx_l2_filtered'] + x['model_rx_ring_disabled'] +
                     x['model_dma_faults'])
        c.eq('%s: port %d frames put on its wire = plays x capture' % (tag, q),
             x['model_pcap_frames_read'], want[q])
        c.eq('%s: port %d wire frames = received + NIC drops (ierrors, imissed, '
             'L2-filtered, ring disabled, DMA faults)' % (tag, q), x['model_pcap_frames_read'],
             st['rx'] + st['rx_errors'] + st['rx_missed'] + wire_drop)
        nic_drop += st['rx_errors'] + st['rx_missed'] + wire_drop
        # the MAC's transmitted frames: A1 mailbox counters (uptc, mptc,
        # bptc), A2 firmware statistics (tx_unicast/multicast/broadcast)
        wire_out = (x['mac_uptc'] + x['mac_mptc'] + x['mac_bptc'] if 'mac_uptc' in x else
                    x['mac_tx_unicast_frames'] + x['mac_tx_multicast_frames'] +
                    x['mac_tx_broadcast_frames'])
        c.eq('%s: port %d sent = frames on its wire + TX errors + lost in resets' % (tag, q),
             st['tx'], wire_out + x['model_tx_errors'] + x['tx_lost_in_reset'])
        f['wire_out_%d' % q] = wire_out
    rx = ports[0]['rx'] + ports[1]['rx']
    c.eq('%s: received = pipeline RX + left in RX queues' % tag, rx, pl['rx'] + drained)
    c.eq('%s: pipeline RX = pass + tx + redirect + drop + aborted + held' % tag, pl['rx'],
         pl['pass'] + pl['tx'] + pl['redirect'] + pl['drop'] + pl['aborted'] + pl['held'])
    c.eq('%s: pipeline drop = the sum of its reasons' % tag, pl['drop'], sum(reasons.values()))
    fwd_tx = sum(s[5] for s in fwd[:2])
    fwd_dropped = sum(s[6] for s in fwd[:2])
    f['fwd_dropped_from'] = {s[0]: s[6] for s in fwd[:2]}
    c.eq('%s: forwarding TX = the NICs\' TX' % tag, fwd_tx,
         ports[0]['tx'] + ports[1]['tx'])
    # A stream's TX-dropped is its pipeline's drop + aborted (frames the
    # program or a stage dropped, and PASS frames the TX ring refused,
    # tx_full): counted once.
    c.eq('%s: forwarding TX-dropped = pipeline drop + aborted' % tag, fwd_dropped,
         pl['drop'] + pl['aborted'])
    lost = (want[0] + want[1]) - (f['wire_out_0'] + f['wire_out_1'] + nic_drop +
                                  fwd_dropped + drained + pl['held'] +
                                  xs[0]['model_tx_errors'] + xs[1]['model_tx_errors'] +
                                  xs[0]['tx_lost_in_reset'] + xs[1]['tx_lost_in_reset'])
    c.eq('%s: every frame out of the other port or dropped with a reason' % tag, lost, 0)
    c.eq('%s: mbufs in use after shutdown' % tag, f['in_use'], 0)
    f.update(nic_drop=nic_drop, fwd_dropped=fwd_dropped, fwd_tx=fwd_tx, lost=lost)
    return f


def report(tag, f, rate, elapsed=None):
    xs = f['xs']
    sent = xs[0]['model_pcap_frames_read'] + xs[1]['model_pcap_frames_read']
    out = f['wire_out_0'] + f['wire_out_1']
    print('--- %s: %s, %s ---' % (tag, 'run %.0f s' % elapsed if elapsed else 'run',
                               '%.0f frames/s' % rate if rate else 'rate not sampled'))
    print('frames in (put on the wires): %d (port 0 %d, port 1 %d)' %
          (sent, xs[0]['model_pcap_frames_read'], xs[1]['model_pcap_frames_read']))
    print('frames out (other port\'s wire): %d' % out)
    print('dropped: NIC %d (ierrors %d, imissed %d), pipeline %d %s, forwarding TX %d, '
          'left in RX queues %d, held in GRO %d' %
          (f['nic_drop'], f['ports'][0]['rx_errors'] + f['ports'][1]['rx_errors'],
           f['ports'][0]['rx_missed'] + f['ports'][1]['rx_missed'], f['pl']['drop'],
           f['reasons'], f['fwd_dropped'], f['drained'], f['pl']['held']))
    print('GRO: in %d out %d (merge ratio %.2f)' % (f['pl']['gro_in'], f['pl']['gro_out'],
                                                      f['pl']['merge_ratio']))
    keys = ('model_random_faults', 'model_faults_injected', 'model_fault_rx_damaged',
            'model_fault_tx_stalls', 'model_fault_link_flaps', 'rx_mbuf_allocation_errors')
    print('faults: ' + ', '.join('%s %d' % (k, xs[0][k] + xs[1][k]) for k in keys))
    print('unaccounted: %d; mempool in use after shutdown: %d' % (f['lost'], f['in_use']))


def add_up(total, f):
    xs = f['xs']

    def add(k, v):
        total[k] = total.get(k, 0) + v
    add('frames in', xs[0]['model_pcap_frames_read'] + xs[1]['model_pcap_frames_read'])
    add('frames out', f['wire_out_0'] + f['wire_out_1'])
    add('dropped: NIC (ierrors + imissed + model)', f['nic_drop'])
    for k, v in f['reasons'].items():
        add('dropped: pipeline %s' % k, v)
    add('dropped: forwarding TX (ring full after retries)', f['fwd_dropped'])
    add('left in RX queues', f['drained'])
    for k in ('model_random_faults', 'model_faults_injected', 'model_fault_rx_damaged',
              'model_fault_tx_stalls', 'model_fault_link_flaps'):
        add('faults: %s' % k, xs[0][k] + xs[1][k])
    add('faults started', xs[0]['model_random_faults'] + xs[1]['model_random_faults'])
    add('unaccounted', f['lost'])
    add('mbufs in use', f['in_use'] or 0)


def main():
    global MODEL
    if len(sys.argv) not in (2, 3, 4) or (len(sys.argv) == 4 and
                                          sys.argv[3] not in ('aqc107', 'aqc113')):
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    if len(sys.argv) == 4:
        MODEL = sys.argv[3]
    try:
        secs = float(sys.argv[1])
        seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    except ValueError:
        print('soak_fwd.py: SECONDS must be a number and SEED an integer', file=sys.stderr)
        return 2
    if secs <= 0:
        print('soak_fwd.py: SECONDS must be above 0', file=sys.stderr)
        return 2
    c = fwdlib.Checker()
    g0, m0, b0 = port0_frames()
    g1, m1, b1 = port1_frames()
    with tempfile.TemporaryDirectory(prefix='tpsoak', dir=fwdlib.build_root()) as d:
        caps = [os.path.join(d, 'port0.pcap'), os.path.join(d, 'port1.pcap')]
        tpgen.write_pcap(caps[0], interleave(g0, m0 + b0))
        tpgen.write_pcap(caps[1], interleave(g1, m1 + b1))
        counts = [len(g0) + len(m0) + len(b0), len(g1) + len(m1) + len(b1)]

        # 1. no faults: exact figures
        loops = 3000
        f, rate = run(c, 'clean', caps, counts, loops, 0, seed, 300)
        if f is not None:
            report('clean', f, rate)
            c.eq('clean: NIC drops', f['nic_drop'], 0)
            # the model's TX is a thread on a shared core; what its ring
            # cannot take is the pipeline's drop reason tx_full
            full = f['reasons'].get('tx_full', 0)
            c.eq('clean: pipeline drops = the bad frames + tx_full', f['pl']['drop'] - full,
                 loops * (len(b0) + len(b1)))
            c.eq('clean: drop reasons but tx_full',
                 {k: v for k, v in f['reasons'].items() if k != 'tx_full'},
                 {'dsa_bad_type': loops, 'dsa_too_short': loops, 'vlan_too_short': 3 * loops})
            # a stream's TX-dropped: its bad frames and what the ring refused
            for rxp, g, m, b in ((0, g0, m0, b0), (1, g1, m1, b1)):
                c.eq('clean: out of port %d + its stream\'s TX-dropped = port %d\'s '
                     'frames' % (1 - rxp, rxp),
                     f['wire_out_%d' % (1 - rxp)] + f['fwd_dropped_from'][rxp],
                     loops * (len(g) + len(m) + len(b)))
        # 2. faults, in rounds until SECONDS have passed (each round played
        # out and checked in full); a fault starts every 2000 frames on
        # average (link flaps are 1 in 16 of them)
        t0 = time.monotonic()
        rnd, total = 0, {}
        while rnd == 0 or time.monotonic() - t0 < secs:
            left = max(1.0, secs - (time.monotonic() - t0))
            loops = max(2, int((rate or 20000.0) * left / sum(counts)))
            t1 = time.monotonic()
            tag = 'faults round %d' % (rnd + 1)
            f, r = run(c, tag, caps, counts, loops, 2000, seed + 2 * rnd, int(left * 4 + 120))
            if f is None:
                break
            report(tag, f, r, time.monotonic() - t1)
            # what the round achieved, start-up included: rounds undershoot
            # rather than overrun SECONDS
            rate = loops * sum(counts) / (time.monotonic() - t1)
            add_up(total, f)
            rnd += 1
        if total:
            print('=== soak: %d round(s), %.0f s ===' % (rnd, time.monotonic() - t0))
            for k in sorted(total):
                print('  %s: %d' % (k, total[k]))
            c.true('faults: some were injected', total['faults started'] > 0)
            c.eq('soak: unaccounted frames', total['unaccounted'], 0)
            c.eq('soak: mbufs in use after each shutdown', total['mbufs in use'], 0)
    c.exit()


if __name__ == '__main__':
    sys.exit(main())
