#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Bad --host-if values: exit status 2 and exactly one error line, which
names the bad value; nothing is created. No root needed: every case fails
before an interface is made."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

# (application arguments, text the error line must contain, needs ports)
CASES = [
    (['--host-if', '0:1'], "'0:1'", False),
    (['--host-if', ''], "bad entry ''", False),
    (['--host-if', '0:1=lan1,'], "bad entry ''", False),
    (['--host-if', '0:x=lan1'], "'x'", False),
    (['--host-if', '0:256=lan1'], "'256'", False),
    (['--host-if', '0:-1=lan1'], "'-1'", False),
    (['--host-if', '32:1=lan1'], "'32'", False),
    (['--host-if', '0:1=a/b'], "'a/b'", False),
    (['--host-if', '0:1=0123456789abcdef'], "'0123456789abcdef'", False),
    (['--host-if', '0:1=lan1,0:1=lan2'], 'switch port 1 already has lan1', False),
    (['--host-if', '0:1=lan1', '--host-if', '0:2=lan1'], 'lan1 given twice', False),
    # Checked once the EAL has found the ports (one net_null port here).
    (['--host-if', '3:1=thostx1'], 'no such port 3', True),
    (['--host-if', '0:1=thostx1'], 'port 0 has no switch tag', True),
    (['--port-tagger', '0:none', '--host-if', '0:1=thostx1'], 'port 0 has no switch tag',
     True),
    (['--port-tagger', '0:ocelot-8021q', '--host-if', '0:16=thostx1'],
     'tagger ocelot-8021q addresses switch ports 0..15', True),
]


def main():
    c = fwdlib.Checker()
    for i, (args, want, ports) in enumerate(CASES):
        eal = fwdlib.eal_args('tpthost_bad%d' % i, ['net_null0'] if ports else [])
        cmd = [fwdlib.fwd_binary()] + eal + ['--'] + args
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60)
        fwdlib.cleanup_runtime(eal)
        errs = [ln for ln in r.stderr.splitlines()
                if ln.strip() and not ln.startswith(('EAL:', 'TELEMETRY:'))]
        what = ' '.join(args)
        c.eq(what + ': exit status', r.returncode, 2)
        c.true(what + ': one error line naming %s: %r' % (want, errs),
               len(errs) == 1 and errs[0].startswith('tagpipe-fwd: error: --host-if') and
               want in errs[0])
        c.true(what + ': no interface was made',
               'Host interface' not in r.stdout)
    c.exit()


if __name__ == '__main__':
    main()
