#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tagpipe-fwd warns at start for each net_af_packet port whose kernel
interface has TX checksum offload on (deploy/README.md: such frames reach
the packet socket with checksums not filled in), and only for those: a
veth pair with offload on at one end and off at the other gives exactly
one warning, naming that port and interface. Needs root (ip, ethtool)."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402


def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    if os.geteuid() != 0 or not shutil.which('ethtool') or not shutil.which('ip'):
        print('SKIP: needs root, ip and ethtool')
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    a, b = 'tpw%da' % (os.getpid() % 10000), 'tpw%db' % (os.getpid() % 10000)
    r = sh('ip', 'link', 'add', a, 'type', 'veth', 'peer', 'name', b)
    if r.returncode != 0:
        print('SKIP: cannot make a veth pair: ' + r.stderr.strip())
        sys.exit(fwdlib.SKIP)
    try:
        for d in (a, b):
            sh('ip', 'link', 'set', d, 'up')
        c.eq('ethtool -K %s tx on' % a, sh('ethtool', '-K', a, 'tx', 'on').returncode, 0)
        c.eq('ethtool -K %s tx off' % b, sh('ethtool', '-K', b, 'tx', 'off').returncode, 0)
        eal = fwdlib.eal_args('tpfwd_afw', ['net_af_packet0,iface=' + a,
                                            'net_af_packet1,iface=' + b])
        rc, out, err = fwdlib.run_prompt(eal, [], [('quit', 0)])
        print(out)
        print(err, file=sys.stderr)
        c.eq('tagpipe-fwd exit status', rc, 0)
        warn = [ln for ln in (out + err).splitlines() if 'TX checksum offload on' in ln]
        c.eq('one warning, for port 0 (%s) only' % a, warn,
             ["tagpipe.fwd: port 0: af_packet interface %s has TX checksum offload on: "
              "locally sent TCP may reach the port with checksums not filled in; run "
              "'ethtool -K %s tx off' (and on its peer), see deploy/README.md" % (a, a)])
    finally:
        sh('ip', 'link', 'del', a)
    c.exit()


if __name__ == '__main__':
    main()
