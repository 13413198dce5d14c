#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""set verbose N prints each packet as testpmd's verbose mode does (levels
0 off, 1 received, 2 sent, 3 both), with tagpipe's metadata. A scripted
--cmdline-file session ("set verbose 3", then batch forwarding in pipeline
mode) over two net_pcap ports receiving hand-built frames:
  port 0 (--port-tagger 0:dsa): a Marvell DSA FORWARD tag from switch
         port 3 in front of an IPv4/UDP frame, then two TCP segments of
         one flow from switch port 5 (GRO on: one packet of 2 segments);
  port 1 (no tagger): an IPv4/UDP frame in VLAN 100, and one in QinQ
         (S-tag 0x88a8 VID 200, C-tag PCP 1 VID 100).
The expected lines are built here from the frames: received = after the
untagging and GRO with the verdict (pass); sent = the frames offered to
the peer port (VLANs re-inserted into the frame, the switch tag not: a
PASS frame leaves the switch domain; the merged packet split back by GSO).
Also: a bad level is refused naming the value and the levels; level 0
prints nothing; help and TAB list the command (fwd_completion covers TAB
words)."""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

DST = bytes.fromhex('020000000002')
SRC = bytes.fromhex('020000000001')
RX_FLAGS_NONE = ('RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN '
                 'RTE_MBUF_F_RX_OUTER_L4_CKSUM_UNKNOWN ')
# No TX offload asked for (software VLAN insert, software GSO): the L4
# request field's zero value is the only name (rte_get_tx_ol_flag_list).
TX_FLAGS_NONE = '  ol_flags: RTE_MBUF_F_TX_L4_NO_CKSUM '


def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(proto, payload, ident):
    """IPv4 header (RFC 791) with its checksum, DF set."""
    h = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), ident, 0x4000, 64,
                    proto, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    return h[:10] + struct.pack('!H', csum(h)) + h[12:] + payload


def udp(payload):
    """UDP 1000 -> 2000 (RFC 768), checksum 0 (none, allowed over IPv4)."""
    return struct.pack('!HHHH', 1000, 2000, 8 + len(payload), 0) + payload


def tcp(seq, payload, flags):
    """TCP 3000 -> 4000 (RFC 793), checksum over the pseudo header."""
    h = struct.pack('!HHIIBBHHH', 3000, 4000, seq, 1, 5 << 4, flags, 65535, 0, 0)
    pseudo = bytes([10, 0, 0, 1, 10, 0, 0, 2, 0, 6]) + struct.pack('!H', 20 + len(payload))
    c = csum(pseudo + h + payload)
    return h[:16] + struct.pack('!H', c) + h[18:] + payload


def dsa_tag(port):
    """Marvell DSA tag, FORWARD command (3), device 0, untagged (Linux
    net/dsa/tag_dsa.c: byte 0 bits 7..6 command, 4..0 device; byte 1 bits
    7..3 source port)."""
    return bytes([3 << 6, port << 3, 0, 0])


def vlan(tpid, tci):
    return struct.pack('!HH', tpid, tci)


def flags(*names):
    """rte_get_rx_ol_flag_list output: names in the order of DPDK's table
    (lib/mbuf/rte_mbuf.c rx_flags[]; given so here), one space after each;
    the checksum states print UNKNOWN while no status is set."""
    return ' '.join(names) + ' ' if names else ''


def write_pcap(path, frames):
    """Classic pcap (libpcap savefile: magic a1b2c3d4, v2.4, EN10MB)."""
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack('<IIII', 1, i, len(fr), len(fr)) + fr)


def main():
    c = fwdlib.Checker()
    tmp = tempfile.mkdtemp(prefix='tpfwd_verbose')
    udp_ip = ipv4(17, udp(b'verbose-udp-' + bytes(20)), 1)
    seg = [bytes(range(i, i + 100)) for i in (0, 100)]
    # ACK, then PSH|ACK: a PSH ends an aggregate, so only on the last.
    tcp_ip = [ipv4(6, tcp(1000 + 100 * i, seg[i], (0x10, 0x18)[i]), 10 + i) for i in range(2)]
    p0 = [DST + SRC + dsa_tag(3) + b'\x08\x00' + udp_ip] + \
         [DST + SRC + dsa_tag(5) + b'\x08\x00' + t for t in tcp_ip]
    p1 = [DST + SRC + vlan(0x8100, 100) + b'\x08\x00' + udp_ip,
          DST + SRC + vlan(0x88a8, 200) + vlan(0x8100, (1 << 13) | 100) + b'\x08\x00' + udp_ip]
    in0, in1 = os.path.join(tmp, 'p0.pcap'), os.path.join(tmp, 'p1.pcap')
    write_pcap(in0, p0)
    write_pcap(in1, p1)
    script = os.path.join(tmp, 'verbose.cmd')
    with open(script, 'w') as f:
        f.write('set verbose 4\nset verbose x\nset verbose 3\n')
    vdevs = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % in0,
             'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % in1]
    eal = fwdlib.eal_args('tpfwd_verbose', vdevs)
    app = ['--cmdline-file', script, '--forward-mode', 'pipeline', '--port-tagger', '0:dsa',
           '--gro', 'on', '--stats-period', '1']

    def done(t):
        st = fwdlib.last_port_stats(t)
        return st.get(1, {}).get('tx') == 3 and st.get(0, {}).get('tx') == 2
    rc, out, err = fwdlib.run_batch(eal, app, done)
    print(out)
    print(err, file=sys.stderr)
    c.eq('exit status', rc, 0)
    c.eq('bad levels refused, naming the value and the levels',
         [ln for ln in err.splitlines() if 'set verbose' in ln],
         ["tagpipe-fwd: error: set verbose: bad level '4' (0 off, 1 received, 2 sent, 3 both)",
          "tagpipe-fwd: error: set verbose: bad level 'x' (0 off, 1 received, 2 sent, 3 both)"])
    c.true('level change reported as testpmd does', 'Change verbose level from 0 to 3' in out)

    # What we expect, from the frames above.
    udp_len = 14 + len(udp_ip)
    merged_len = 14 + 20 + 20 + 200
    want = [
        ('port 0/queue 0: received 2 packets', [
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=1 - switch_port=3 - gso_segs=1 - verdict=pass' % udp_len,
             '  ol_flags: ' + RX_FLAGS_NONE),
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=2 - switch_port=5 - gso_segs=2 - verdict=pass' % merged_len,
             # lib/gro's contract (tp_gro.h): LRO, L4 NONE, IPv4 GOOD
             '  ol_flags: ' + flags('RTE_MBUF_F_RX_L4_CKSUM_NONE', 'RTE_MBUF_F_RX_IP_CKSUM_GOOD',
                                    'RTE_MBUF_F_RX_LRO',
                                    'RTE_MBUF_F_RX_OUTER_L4_CKSUM_UNKNOWN'))]),
        ('port 1/queue 0: sent 3 packets', [
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=1 - gso_segs=1' % udp_len, TX_FLAGS_NONE),
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=1 - gso_segs=1' % (14 + len(tcp_ip[0])), TX_FLAGS_NONE),
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=1 - gso_segs=1' % (14 + len(tcp_ip[1])), TX_FLAGS_NONE)]),
        ('port 1/queue 0: received 2 packets', [
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=1 - VLAN tci=0x64 - gso_segs=1 - verdict=pass' % udp_len,
             '  ol_flags: ' + flags('RTE_MBUF_F_RX_VLAN', 'RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN',
                                    'RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN',
                                    'RTE_MBUF_F_RX_VLAN_STRIPPED',
                                    'RTE_MBUF_F_RX_OUTER_L4_CKSUM_UNKNOWN')),
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x0800 - length=%d'
             ' - nb_segs=1 - QinQ VLAN tci=0x2064, VLAN tci outer=0xc8 - gso_segs=1'
             ' - verdict=pass' % udp_len,
             '  ol_flags: ' + flags('RTE_MBUF_F_RX_VLAN', 'RTE_MBUF_F_RX_L4_CKSUM_UNKNOWN',
                                    'RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN',
                                    'RTE_MBUF_F_RX_VLAN_STRIPPED', 'RTE_MBUF_F_RX_QINQ_STRIPPED',
                                    'RTE_MBUF_F_RX_QINQ',
                                    'RTE_MBUF_F_RX_OUTER_L4_CKSUM_UNKNOWN'))]),
        ('port 0/queue 0: sent 2 packets', [
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x8100 - length=%d'
             ' - nb_segs=1 - gso_segs=1' % (udp_len + 4), TX_FLAGS_NONE),
            ('  src=02:00:00:00:00:01 - dst=02:00:00:00:00:02 - type=0x88a8 - length=%d'
             ' - nb_segs=1 - gso_segs=1' % (udp_len + 8), TX_FLAGS_NONE)]),
    ]
    got = []
    lines = out.splitlines()
    hdr = re.compile(r'^port \d+/queue \d+: (received|sent) (\d+) packets$')
    for i, ln in enumerate(lines):
        m = hdr.match(ln)
        if m:
            pk = [(lines[i + 1 + 2 * k], lines[i + 2 + 2 * k]) for k in range(int(m.group(2)))]
            got.append((ln, pk))
    c.eq('verbose blocks: headers in order', [g[0] for g in got], [w[0] for w in want])
    for (gh, gp), (wh, wp) in zip(got, want):
        c.eq('%s: packet lines' % wh, [p[0] for p in gp], [p[0] for p in wp])
        for k, (g, w) in enumerate(zip(gp, wp)):
            c.eq('%s: packet %d ol_flags' % (wh, k), g[1], w[1])
    c.true('every mbuf back in the pool',
           re.search(r'mempool \S+: 0 of \d+ mbufs in use after shutdown\n', out) is not None)

    # Level 0 (the default, and after "set verbose 0"): no packet lines.
    with open(script, 'w') as f:
        f.write('set verbose 1\nset verbose 0\n')
    # With every tagpipe log type at debug (issue 14: it added nothing).
    eal = fwdlib.eal_args('tpfwd_verbose0', vdevs, ['--log-level=tagpipe.*:debug'])
    rc, out, err = fwdlib.run_batch(eal, app, done)
    print(out)
    print(err, file=sys.stderr)
    logs = out + err
    for what, line in (
            ('tagpipe.fwd', 'tagpipe.fwd: stream 0: RX port 0 queue 0 -> TX port 1 queue 0, '
                            'lcore 1'),
            ('tagpipe.fwd', 'tagpipe.fwd: verbose 1: verdict observer on, TX callbacks off'),
            ('tagpipe.pipeline', 'tagpipe: pipeline fwd-p0q0: port 0 tagger dsa, VLAN strip, '
                                 'TX caps 0x0'),
            ('tagpipe.pipeline', 'tagpipe: pipeline fwd-p1q0: program pass, verdict after '
                                 'GRO, GRO burst (age 0 us), max_burst 256, TX queue 0, '
                                 'redirect map 1 entries'),
            ('tagpipe.gro', 'tp_gro: table: '),
            ('tagpipe.dsa', "tp_dsa_tag: tagger 'dsa': 4-byte RX tag, 4-byte TX tag, ports 0.."),
            ('tagpipe.dsa', "tp_dsa_tag: tagger 'dsa' configured: "),
            ('tagpipe.vlan', 'tp_vlan: TPIDs (default): 0x8100 0x88a8')):
        c.true('--log-level=tagpipe.*:debug: %s says %r' % (what, line), line in logs)
    c.eq('level 0: exit status', rc, 0)
    c.true('level 0: set', 'Change verbose level from 1 to 0' in out)
    c.eq('level 0: no packet lines', [ln for ln in out.splitlines() if hdr.match(ln)], [])
    st = fwdlib.last_port_stats(out)
    c.eq('level 0: still forwarded', (st.get(0, {}).get('tx'), st.get(1, {}).get('tx')), (2, 3))

    # help lists it (the man page check is install_example's).
    eal = fwdlib.eal_args('tpfwd_verbose_help', vdevs)
    with open(script, 'w') as f:
        f.write('help\nquit\n')
    r = subprocess.run([fwdlib.fwd_binary()] + eal + ['--', '--cmdline-file', script],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    fwdlib.cleanup_runtime(eal)
    c.true('help lists set verbose',
           'set verbose 0|1|2|3 (off, received, sent, both)' in r.stdout)
    shutil.rmtree(tmp, ignore_errors=True)
    c.exit()


if __name__ == '__main__':
    main()
