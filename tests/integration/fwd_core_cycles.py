#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Issue 30: tagpipe-fwd's --record-core-cycles and --record-burst-stats
print what dpdk-testpmd's do, in its words, and add up.

tagpipe-fwd forwards pcaps/demo.pcap (net_aqc_sim, wire=pcap, lossless) in
io and in pipeline mode with both options. Checked, exactly:
  - the forward statistics end with testpmd's line "CPU cycles/packet=X
    (total cycles=Y / total MODE packets=Z) at M MHz Clock" with Z = the
    accumulated RX-packets (every frame of the capture), X = Y / Z to two
    decimals, Y > 0 and M the TSC rate in MHz;
  - port 0's block has testpmd's "RX-bursts : N [..]" line whose shares
    sum to 100 and whose bursts are at least the frames over the burst
    size;
  - after "set record-core-cycles off" and "set record-burst-stats off"
    the next run prints neither line;
  - when /usr/bin/dpdk-testpmd is there, its own lines for the same run
    match the same patterns (the format is testpmd's, not a look-alike).
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import ptyprompt  # noqa: E402

CYC = re.compile(r'^  CPU cycles/packet=(\d+\.\d\d) \(total cycles=(\d+) / total (\w+) '
                 r'packets=(\d+)\) at (\d+) MHz Clock$', re.M)
BURSTS = re.compile(r'^  RX-bursts : (\d+) \[((?:\d+% of \d+ pkts \+ )*)(\d+)% of '
                    r'(?:\d+ pkts|other)\]$', re.M)
ACC_RX = re.compile(r'Accumulated forward statistics for all ports\++\s*'
                    r'RX-packets:\s+(\d+)')
TESTPMD = '/usr/bin/dpdk-testpmd'


def check_run(c, what, text, mode, n):
    m = CYC.search(text)
    c.true('%s: testpmd\'s CPU cycles/packet line' % what, m is not None)
    if m is None:
        print(text[-3000:])
        return
    x, y, md, z, mhz = float(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4)), \
        int(m.group(5))
    acc = ACC_RX.search(text)
    c.eq('%s: packets in the line = accumulated RX-packets' % what, z,
         int(acc.group(1)) if acc else None)
    c.eq('%s: every frame of the capture counted' % what, z, n)
    c.eq('%s: the mode named' % what, md, mode)
    c.true('%s: busy cycles counted' % what, y > 0)
    c.eq('%s: cycles/packet = total / packets' % what, '%.2f' % x, '%.2f' % (y / z))
    c.true('%s: the TSC rate in MHz' % what, 100 <= mhz <= 10000)
    b = BURSTS.search(text)
    c.true('%s: testpmd\'s RX-bursts line' % what, b is not None)
    if b is not None:
        shares = [int(s) for s in re.findall(r'(\d+)% of', b.group(0))]
        c.eq('%s: burst shares sum to 100' % what, sum(shares), 100)
        c.true('%s: at least frames/32 bursts' % what, int(b.group(1)) >= n // 32)


def main():
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    for mode in ('io', 'pipeline'):
        eal = fwdlib.eal_args('tpfwd_cyc_' + mode, [
            'net_aqc_sim0,wire=pcap,rx_pcap=%s' % demo, 'net_aqc_sim1,wire=pcap'])

        def all_in(text, k=1):
            st = fwdlib.last_port_stats(text)
            return st.get(0, {}).get('rx') == k * n

        rc, out, err = fwdlib.run_prompt(eal, [
            '--forward-mode', mode, '--port-topology', 'chained', '--record-core-cycles',
            '--record-burst-stats'], [
            ('start', 0.5), ('show port stats all', all_in), ('stop', 0.5),
            ('set record-core-cycles off', 0.2), ('set record-burst-stats off', 0.2),
            ('clear port stats all', 0.2), ('start', 0.5), ('stop', 0.5), ('quit', 0)])
        c.eq('%s: exit status' % mode, rc, 0)
        first, _, second = out.partition('set record-core-cycles off')
        check_run(c, mode, first, mode, n)
        c.true('%s: off: no CPU cycles line' % mode, CYC.search(second) is None)
        c.true('%s: off: no RX-bursts line' % mode, BURSTS.search(second) is None)
    if os.access(TESTPMD, os.X_OK):
        eal = fwdlib.eal_args('tpfwd_cyc_tpmd', [
            'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
            'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % demo])
        # In a terminal, command by command: its lines are out before the
        # next prompt, and nothing is sent before testpmd is up.
        p = ptyprompt.Prompt([TESTPMD] + eal + ['--', '-i', '--no-numa', '--record-core-cycles',
                                                '--record-burst-stats', '--forward-mode=io',
                                                '--total-num-mbufs=8192', '--no-flush-rx'],
                             'testpmd> ', timeout=60)
        try:
            p.cmd('start')
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                st = fwdlib.last_port_stats(p.cmd('show port stats 0'))
                if st.get(0, {}).get('rx', 0) >= 326:
                    break
                time.sleep(0.05)
            tout = p.cmd('stop')
            p.close()
        except BaseException:
            p.kill()
            raise
        finally:
            fwdlib.cleanup_runtime(eal)
        c.true('dpdk-testpmd prints the same CPU cycles line', CYC.search(tout) is not None)
        c.true('dpdk-testpmd prints the same RX-bursts line', BURSTS.search(tout) is not None)
        if CYC.search(tout) is None or BURSTS.search(tout) is None:
            print(tout[-3000:])
    else:
        print('note: no %s: the format is not compared with testpmd\'s own' % TESTPMD)
    return c.exit()


if __name__ == '__main__':
    sys.exit(main())
