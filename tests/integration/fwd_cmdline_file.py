#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""--cmdline-file runs prompt commands from a file first, as testpmd's
option does, for scripted deployments:
  - a script that ends with quit: each command runs (echoed after the
    prompt), a bad one gets its error and the script goes on, and the
    program exits 0 without the batch run;
  - a script without quit: forwarding (batch mode) follows it, with the
    mode the script set;
  - an unreadable file: exit 2 before the EAL, one error naming it."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402


def main():
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    vdevs = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
             'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % demo]
    tmp = tempfile.mkdtemp(prefix='tpfwd_cmdfile')
    script = os.path.join(tmp, 'quit.cmd')
    with open(script, 'w') as f:
        f.write('set fwd io\nset fwd bogus\nstart\nshow port stats all\nstop\nquit\n')

    eal = fwdlib.eal_args('tpfwd_cmdf1', vdevs)
    cmd = [fwdlib.fwd_binary()] + eal + ['--', '--cmdline-file', script]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=60)
    fwdlib.cleanup_runtime(eal)
    print(r.stdout)
    print(r.stderr, file=sys.stderr)
    c.eq('script with quit: exit status', r.returncode, 0)
    c.true('commands echoed after the prompt',
           'tagpipe> set fwd io' in r.stdout and 'tagpipe> quit' in r.stdout)
    c.true('set fwd io ran', 'Set io packet forwarding mode' in r.stdout)
    c.true('the bad command got its error, naming the modes',
           "tagpipe-fwd: error: set fwd: unknown mode 'bogus' (one of " in r.stderr)
    c.true('start ran in io mode', 'io packet forwarding - ports=2' in r.stdout)
    c.true('quit ended it: no batch run', 'Press Ctrl-C' not in r.stdout)
    acc = re.search(r'Accumulated forward statistics.*?RX-packets:\s*(\d+)\s.*?'
                    r'TX-packets:\s*(\d+)', r.stdout, re.S)
    c.true('forward statistics printed at stop', acc is not None)
    if acc:
        c.eq('forwarded RX = TX', int(acc.group(1)), int(acc.group(2)))
    c.true('every mbuf back in the pool',
           re.search(r'mempool \S+: 0 of \d+ mbufs in use after shutdown\n', r.stdout) is not None)

    # Without quit: forwarding follows, in the mode the script set.
    script2 = os.path.join(tmp, 'mode.cmd')
    with open(script2, 'w') as f:
        f.write('set fwd io\n')
    eal = fwdlib.eal_args('tpfwd_cmdf2', vdevs)

    def consumed(text):
        return 'Press Ctrl-C' in text

    rc, out, err = fwdlib.run_batch(eal, ['--cmdline-file', script2, '--stats-period', '1'],
                                    lambda t: consumed(t) and all(
                                        v['rx'] == n for v in fwdlib.last_port_stats(t).values())
                                    and len(fwdlib.last_port_stats(t)) == 2)
    print(out)
    print(err, file=sys.stderr)
    c.eq('script without quit: exit status after SIGINT', rc, 0)
    c.true('the script ran before forwarding',
           out.find('Set io packet forwarding mode') < out.find('Press Ctrl-C') and
           'Set io packet forwarding mode' in out)
    c.true('batch forwarding in the mode the script set', 'io packet forwarding' in out)
    st = fwdlib.last_port_stats(out)
    c.eq('every frame forwarded: TX port 0', st.get(0, {}).get('tx'), n)
    c.eq('every frame forwarded: TX port 1', st.get(1, {}).get('tx'), n)

    # Unreadable file: usage error before the EAL.
    missing = os.path.join(tmp, 'nope.cmd')
    eal = fwdlib.eal_args('tpfwd_cmdf3', [])
    r = subprocess.run([fwdlib.fwd_binary()] + eal + ['--', '--cmdline-file', missing],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    fwdlib.cleanup_runtime(eal)
    errs = [ln for ln in r.stderr.splitlines() if ln.startswith('tagpipe-fwd')]
    c.eq('missing file: exit status', r.returncode, 2)
    c.eq('missing file: the error', errs,
         ["tagpipe-fwd: error: --cmdline-file: cannot read '%s': No such file or "
          "directory (see --help)" % missing])
    shutil.rmtree(tmp, ignore_errors=True)
    c.exit()


if __name__ == '__main__':
    main()
