#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Issue 26, item 5: the prompt commands a dpdk-testpmd user types every
day answer in tagpipe-fwd as in testpmd. The oracle is the unmodified
Debian dpdk-testpmd (22.11) itself: both run on the same virtual ports, in
a pseudo-terminal, get the same commands, and each command's output must be
the same text (tagpipe-fwd's one extra line of show port info, its DSA
tagger and VLAN policy, is checked and then set aside). Then forward
statistics: both forward the same capture in io mode, and testpmd's
per-port and accumulated blocks must equal ours; our per-stream lines obey
RX = TX + TX-dropped. Then start tx_first: on a loop of two net_ring ports
each stream sent exactly one burst (32 frames) more than it received; and
the README's wire=loop example on net_aqc_sim carries traffic.
Skipped (77) without /usr/bin/dpdk-testpmd (Debian package dpdk)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import ptyprompt  # noqa: E402

TESTPMD = '/usr/bin/dpdk-testpmd'

# Commands whose whole output must be testpmd's, in this order.
SAME = [
    'show port summary all',
    'show port summary 1',
    'show config fwd',
    'show port 0 rss-hash',
    'port stop all',
    'start',
    'port start all',
    'port start 0',
    'set promisc all off',
    'show port info 0',
    'set promisc 1 on',
    'show port info 1',
    'set link-down port 0',
    'set link-up port 0',
    'clear port stats all',
    'clear port stats 1',
    'clear port xstats all',
    'port stop 1',
    'port start 1',
    'show fwd stats all',
    'clear fwd stats all',
]


def eal(prefix, vdevs):
    a = ['-l', '0-1', '--no-huge', '--no-shconf', '-m', '512', '--no-pci',
         '--file-prefix=%s_%d' % (prefix, os.getpid())]
    for v in vdevs:
        a += ['--vdev', v]
    return a


def testpmd(prefix, vdevs, extra=()):
    return ptyprompt.Prompt([TESTPMD] + eal(prefix, vdevs) +
                            ['--', '-i', '--no-numa', '--total-num-mbufs=4096'] +
                            list(extra), 'testpmd> ')


def tagpipe(prefix, vdevs, extra=()):
    return ptyprompt.Prompt([fwdlib.fwd_binary()] + eal(prefix, vdevs) +
                            ['--', '-i', '--forward-mode', 'io',
                             '--total-num-mbufs', '8192'] + list(extra), 'tagpipe> ')


def run_all(p, cmds):
    try:
        return {c: p.cmd(c) for c in cmds}
    finally:
        p.close()


def wait_rx(p, port, n):
    """Wait on time (a number of prompt commands is no time on a fast
    machine, and too little on a loaded one)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        m = re.search(r'RX-packets:\s*(\d+)', p.cmd('show port stats %d' % port))
        if m and int(m.group(1)) >= n:
            return True
        time.sleep(0.02)
    return False


FWD_BLOCKS = re.compile(r'(  -+ Forward statistics for port.*?\+{20,}\n)', re.S)


PREFIXES = ('tpops_tpmd', 'tpops_tp', 'tpops_tpmd2', 'tpops_tp2', 'tpops_tp3', 'tpops_tp4')


def main():
    try:
        check()
    finally:   # dpdk-testpmd leaves its runtime directory behind
        for p in PREFIXES:
            fwdlib.cleanup_runtime(['--file-prefix=%s_%d' % (p, os.getpid())])


def check():
    if not os.access(TESTPMD, os.X_OK):
        print('SKIP: %s missing (Debian package dpdk)' % TESTPMD)
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    rings = ['net_ring0', 'net_ring1']
    want = run_all(testpmd('tpops_tpmd', rings), SAME)
    got = run_all(tagpipe('tpops_tp', rings), SAME)
    for cmd in SAME:
        g = got[cmd]
        if cmd.startswith('show port info'):
            c.true('%s: tagpipe line "DSA tagger: none  VLAN: strip" last' % cmd,
                   g.endswith('DSA tagger: none  VLAN: strip\n'))
            g = g[:-len('DSA tagger: none  VLAN: strip\n')]
        c.true('%r: not "Command not found"' % cmd, 'Command not found' not in g)
        c.eq('%r: same output as dpdk-testpmd' % cmd, g, want[cmd])

    # Forward statistics after forwarding one capture, io mode.
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    pcaps = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
             'net_pcap1,tx_pcap=/dev/null']
    outs = {}
    for name, p in (('testpmd', testpmd('tpops_tpmd2', pcaps, ['--no-flush-rx'])),
                    ('tagpipe', tagpipe('tpops_tp2', pcaps))):
        try:
            p.cmd('start')
            c.true('%s: port 0 received the capture' % name, wait_rx(p, 0, n))
            outs[name] = (p.cmd('stop'), p.cmd('show fwd stats all'))
        finally:
            p.close()
    for i, what in enumerate(('stop', 'show fwd stats all')):
        w = FWD_BLOCKS.findall(outs['testpmd'][i].replace('\r', ''))
        g = FWD_BLOCKS.findall(outs['tagpipe'][i])
        c.true('%s: port and accumulated blocks printed' % what, len(g) == 1)
        c.eq('%s: port and accumulated blocks = dpdk-testpmd\'s' % what, g, w)
    acc = fwdlib.fwd_accumulated(outs['tagpipe'][0])
    c.eq('accumulated RX, TX', (acc[0]['rx'], acc[0]['tx']) if acc else None, (n, n))
    for (rxp, rxq, txp, txq, rx, tx, dropped, _) in fwdlib.fwd_stats(outs['tagpipe'][0]):
        c.eq('stream %u->%u: RX = TX + TX-dropped' % (rxp, txp), rx, tx + dropped)

    # start tx_first on a loop: each stream sent one burst more than it got.
    p = tagpipe('tpops_tp3', rings)
    try:
        p.cmd('start tx_first')
        c.true('traffic loops after start tx_first', wait_rx(p, 0, 1000))
        out = p.cmd('stop')
    finally:
        p.close()
    fs = fwdlib.fwd_stats(out)
    c.eq('start tx_first: two streams', len(fs), 2)
    for (rxp, rxq, txp, txq, rx, tx, dropped, _) in fs:
        c.eq('start tx_first: stream %u->%u: TX = RX + one burst of 32' % (rxp, txp),
             tx - rx, 32)
        c.eq('start tx_first: stream %u->%u: TX-dropped' % (rxp, txp), dropped, 0)

    # The README's example: pipeline mode on two looped net_aqc_sim ports.
    p = ptyprompt.Prompt([fwdlib.fwd_binary()] + eal('tpops_tp4', [
        'net_aqc_sim0,wire=loop', 'net_aqc_sim1,wire=loop']) + ['--', '-i'], 'tagpipe> ')
    try:
        p.cmd('start tx_first')
        c.true('README wire=loop example: traffic after start tx_first',
               wait_rx(p, 0, 1000) and wait_rx(p, 1, 1000))
        p.cmd('stop')
    finally:
        rc = p.close()
    c.eq('README example: exit status', rc, 0)
    c.true('README example: no mbuf leaked',
           re.search(r'mempool \S+: 0 of \d+ mbufs in use', p.tail) is not None)
    c.exit()


if __name__ == '__main__':
    main()
