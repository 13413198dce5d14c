#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""No app leaves its EAL runtime directory (/var/run/dpdk/<file-prefix>)
behind (issue 14: each tagpipe-replay run left tagpipe_<pid>/). DPDK makes
it even with --no-shconf and --in-memory; tp_eal removes it at exit when
empty. Checked for tagpipe-replay with its default EAL options (prefix
tagpipe_<pid>, hugepages when the machine has free ones, else the
fallback), with explicit ones, for a failed run (exit 2 after the EAL),
and for tagpipe-fwd ending by "quit" in a --cmdline-file and by SIGINT,
telemetry on (its socket lives in that directory). This test never removes
the directories itself."""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

REPLAY = os.path.join(fwdlib.build_root(), 'apps', 'replay', 'tagpipe-replay')
DEMO = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')


def gone(c, what, prefix):
    d = os.path.join(fwdlib.RUNTIME_DIR, prefix)
    c.true('%s: %s removed' % (what, d), not os.path.exists(d))


def main():
    c = fwdlib.Checker()
    tmp = tempfile.mkdtemp(prefix='tp_noruntime')
    out = os.path.join(tmp, 'o.pcap')

    p = subprocess.Popen([REPLAY, '-i', DEMO, '--write', 'pass=' + out, '--quiet'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = p.communicate(timeout=120)
    c.eq('replay, default EAL: exit status', p.returncode, 0)
    gone(c, 'replay, default EAL', 'tagpipe_%d' % p.pid)

    prefix = 'tp_noruntime_r_%d' % os.getpid()
    r = subprocess.run([REPLAY, '-l', '0', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
                        '--file-prefix=' + prefix, '--', '-i', DEMO, '--quiet'],
                       capture_output=True, text=True, timeout=120)
    c.eq('replay, explicit EAL: exit status', r.returncode, 0)
    gone(c, 'replay, explicit EAL', prefix)

    prefix = 'tp_noruntime_b_%d' % os.getpid()
    r = subprocess.run([REPLAY, '-l', '0', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
                        '--file-prefix=' + prefix, '--', '-i', DEMO, '--via-port',
                        'net_aqc_sim0,wire=peer'], capture_output=True, text=True, timeout=120)
    c.eq('replay, failed probe: exit status', r.returncode, 2)
    gone(c, 'replay, failed probe', prefix)

    vdevs = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % DEMO,
             'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % DEMO]
    script = os.path.join(tmp, 'quit.cmd')
    with open(script, 'w') as f:
        f.write('start\nstop\nquit\n')
    eal = fwdlib.eal_args('tp_noruntime_f', vdevs)
    r = subprocess.run([fwdlib.fwd_binary()] + eal + ['--', '--cmdline-file', script],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    c.eq('fwd, quit: exit status', r.returncode, 0)
    gone(c, 'fwd, quit', os.path.basename(fwdlib.runtime_dir(eal)))

    eal = fwdlib.eal_args('tp_noruntime_s', vdevs)
    p = subprocess.Popen([fwdlib.fwd_binary()] + eal + ['--', '--stats-period', '1'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sock = os.path.join(fwdlib.runtime_dir(eal), 'dpdk_telemetry.v2')
    end = time.monotonic() + 30
    while time.monotonic() < end and not os.path.exists(sock):
        time.sleep(0.2)
    c.true('fwd, SIGINT: the telemetry socket was there while running', os.path.exists(sock))
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    c.eq('fwd, SIGINT: exit status', p.returncode, 0)
    gone(c, 'fwd, SIGINT', os.path.basename(fwdlib.runtime_dir(eal)))
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    c.exit()


if __name__ == '__main__':
    main()
