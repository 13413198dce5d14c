#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""show port stats gives testpmd's "Throughput (since last show)" rates.

net_pcap replays a capture of identical 100-byte frames forever
(infinite_rx=1) into tagpipe-fwd in io mode. The first show has no earlier
sample (all rates 0); a later one has rates > 0 whose bits per second are
exactly 8 * 100 * packets per second (both come from the same interval, so
only the integer rounding of each may differ: at most 8 * 100). No timing
is asserted."""
import os
import re
import sys
import shutil
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

LEN = 100
RATES = re.compile(r'Throughput \(since last show\)\s*'
                   r'Rx-pps:\s*(\d+)\s+Rx-bps:\s*(\d+)\s*'
                   r'Tx-pps:\s*(\d+)\s+Tx-bps:\s*(\d+)')


def main():
    from scapy.all import Ether, IP, UDP, Raw
    c = fwdlib.Checker()
    tmp = tempfile.mkdtemp(prefix='tpfwd_rates')
    pcap = os.path.join(tmp, 'in.pcap')
    frame = Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02') / \
        IP(src='10.0.0.1', dst='10.0.0.2') / UDP(sport=1, dport=2)
    frame = frame / Raw(b'x' * (LEN - len(frame)))
    c.eq('frame length', len(bytes(frame)), LEN)
    fwdlib.write_pcap(pcap, [bytes(frame)] * 64)
    eal = fwdlib.eal_args('tpfwd_rates', [
        'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null,infinite_rx=1' % pcap,
        'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null,infinite_rx=1' % pcap])

    def moving(text):
        st = fwdlib.last_port_stats(text)
        return 0 in st and st[0]['rx'] > 0

    rc, out, err = fwdlib.run_prompt(eal, ['--forward-mode', 'io'], [
        ('show port stats 0', 0.5), ('start', moving),
        ('show port stats 0', 1.0), ('show port stats 0', 0.5),
        ('stop', 0.5), ('quit', 0)])
    print(err, file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    c.eq('tagpipe-fwd exit status', rc, 0)
    shows = [tuple(int(x) for x in m.groups()) for m in RATES.finditer(out)]
    c.true('rates printed with every show port stats (%d)' % len(shows), len(shows) >= 3)
    if len(shows) < 3:
        c.exit()
    c.eq('first show: no earlier sample, rates 0', shows[0], (0, 0, 0, 0))
    moving_shows = [r for r in shows[1:] if r[0] > 0]
    c.true('shows while forwarding with Rx-pps > 0 (%d)' % len(moving_shows),
           len(moving_shows) > 0)
    for rx_pps, rx_bps, tx_pps, tx_bps in moving_shows:
        c.true('Rx-bps %d = 8 * %d * Rx-pps %d (+- rounding)' % (rx_bps, LEN, rx_pps),
               abs(rx_bps - 8 * LEN * rx_pps) <= 8 * LEN)
        c.true('Tx-bps %d = 8 * %d * Tx-pps %d (+- rounding)' % (tx_bps, LEN, tx_pps),
               abs(tx_bps - 8 * LEN * tx_pps) <= 8 * LEN)
    c.exit()


if __name__ == '__main__':
    main()
