#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Bad tagpipe-fwd options: exit status 2 and exactly one error line, which
names the bad value."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

# (application arguments, text the error line must contain, needs ports)
CASES = [
    (['--burst', '0'], "'0'", False),
    (['--burst', '257'], "'257'", False),
    (['--burst', '12x'], "'12x'", False),
    (['--rxq', '-1'], "'-1'", False),
    (['--rxq'], "'--rxq'", False),
    (['--txq', '0'], "'0'", False),
    (['--forward-mode', 'warp'], "'warp'", False),
    (['--port-topology', 'ring'], "'ring'", False),
    (['--stats-period', 'soon'], "'soon'", False),
    (['--bogus-option'], "'--bogus-option'", False),
    (['stray'], "'stray'", False),
    (['--port-vlan', '0:maybe'], "'maybe'", False),
    (['--port-vlan', '0'], "'0'", False),
    (['--port-tagger', 'x:dsa'], "'x'", False),
    (['--gro', 'sometimes'], "'sometimes'", False),
    (['--gso', 'yes'], "'yes'", False),
    (['--gro-max-segs', '65'], "'65'", False),
    (['--gro-age', '1000001'], "'1000001'", False),
    (['--eth-peer', '0,02:00:zz:00:00:01'], "'02:00:zz:00:00:01'", False),
    (['--redirect', '7'], "'7'", False),
    (['--redirect', '1:2:3:4'], "'1:2:3:4'", False),
    (['--txpkts', '41'], "'41'", False),
    # Checked once the EAL has found the ports (two pcap ports here).
    (['--port-tagger', '5:dsa'], 'port 5', True),
    (['--eth-peer', '3,02:00:00:00:00:01'], 'port 3', True),
    (['--redirect', '1=port:9'], 'port 9', True),
    (['--nb-cores', '4'], '--nb-cores 4', True),
    (['--port-tagger', '1:nosuchtag'], "'nosuchtag'", True),
    (['--verdict', 'nosuchprog'], "'nosuchprog'", True),
    (['--verdict', 'redirect:x'], "'redirect:x': program redirect: bad map key 'x' (0..65535)", True),
    # The program's key range is the --redirect key range.
    (['--verdict', 'redirect:65536'], "bad map key '65536' (0..65535)", True),
    # XDP objects are opened with the other checks: a missing file is named.
    (['--verdict', 'prog.o'], "prog.o: No such file", True),
    (['--verdict', 'prog.o:xdp'], "prog.o: No such file", True),
]


def main():
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    vdevs = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
             'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % demo]
    for i, (args, want, ports) in enumerate(CASES):
        eal = fwdlib.eal_args('tpfwd_bad%d' % i, vdevs if ports else [])
        cmd = [fwdlib.fwd_binary()] + eal + ['--'] + args
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60)
        fwdlib.cleanup_runtime(eal)
        # Everything on stderr but the EAL's own start-up lines.
        errs = [ln for ln in r.stderr.splitlines()
                if ln.strip() and not ln.startswith(('EAL:', 'TELEMETRY:'))]
        what = ' '.join(args)
        c.eq(what + ': exit status', r.returncode, 2)
        c.eq(what + ': error lines', len(errs), 1)
        c.true(what + ': the error line names %s: %r' % (want, errs),
               len(errs) == 1 and errs[0].startswith('tagpipe-fwd: error: ') and
               want in errs[0])
        c.true(what + ': nothing on stdout but EAL lines',
               all(ln.startswith(('EAL:', 'TELEMETRY:')) or not ln.strip()
                   for ln in r.stdout.splitlines()))
    c.exit()


if __name__ == '__main__':
    main()
