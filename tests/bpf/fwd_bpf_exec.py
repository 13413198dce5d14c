#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tagpipe-fwd with XDP objects: how a program runs ("show verdict",
/tagpipe/verdict), and frames of several buffers, which a program that is
not xdp.frags never gets (as in the kernel):
  - a port whose MTU admits frames longer than an mbuf (--max-pkt-len 9018
    with 2048-byte buffers) refuses such a program at start, naming MTU,
    frame and buffer sizes; an xdp.frags program runs, and so does the
    same program with --mbuf-size large enough;
  - a frame that arrives in several buffers anyway (net_pcap chains a
    3000-byte frame of its capture) is dropped unrun and counted
    (Multibuf-dropped), the others run (t_lb.o passes them: no VIPs).

usage: fwd_bpf_exec.py BUILD_TESTS_BPF_DIR"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'integration'))
import fwdlib  # noqa: E402

CLIENT = '/usr/bin/dpdk-telemetry.py'
BPF = sys.argv[1]
LB = os.path.join(BPF, 't_lb.o')
FRAGS = os.path.join(BPF, 't_misc.o:xdp.frags')


def consumed(n):
    def pred(text):
        st = fwdlib.last_port_stats(text)
        return 0 in st and st[0]['rx'] == n
    return pred


def main():
    c = fwdlib.Checker()
    with tempfile.TemporaryDirectory(prefix='tpfwd_bpfx') as tmp:
        frames = fwdlib.read_pcap(os.path.join(BPF, 'in.pcap'))
        # frame 0 padded to 3000 bytes: more than one 2048-byte mbuf
        big = frames[0] + bytes(3000 - len(frames[0]))
        cap = os.path.join(tmp, 'in.pcap')
        fwdlib.write_pcap(cap, [big] + frames[1:4])
        vdev = 'net_pcap0,rx_pcap=%s,tx_pcap=%s' % (cap, os.path.join(tmp, 'o.pcap'))

        # 1. how it runs, at the prompt and in telemetry; the chained frame
        eal = fwdlib.eal_args('tpfwd_bpfx', [vdev])
        tel = {}

        def ask():
            r = subprocess.run(['/usr/bin/python3', CLIENT, '-f',
                                os.path.basename(fwdlib.runtime_dir(eal))],
                               input='/tagpipe/verdict\n', capture_output=True,
                               text=True, timeout=60)
            for line in r.stdout.splitlines():
                if line.strip().startswith('{'):
                    tel.update(json.loads(line.strip()))

        app = ['--gro', 'off', '--verdict', LB, '--bpf-unverified']
        rc, out, err = fwdlib.run_prompt(eal, app, [
            ('show verdict', 0.2), ('start', consumed(4)), (None, ask), ('stop', 0.2),
            ('show verdict', 0.2), ('show pipeline stats', 0.2), ('quit', 0)])
        print(out)
        print(err, file=sys.stderr)
        c.eq('exit status', rc, 0)
        c.eq('mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
        reason = 'kernel verifier not asked; every memory access is checked at run time'
        line = ('Verdict program: %s\n  %s (section xdp, function xdp_lb): verified by '
                'tagpipe, execution jit, memory checks checked: %s\n' % (LB, LB, reason))
        c.true('show verdict before the run',
               line + '  Runs: 0  Aborted-oob: 0  Aborted-helper: 0  Aborted-loop: 0  '
               'Linearized: 0  Multibuf-dropped: 0\n' in out)
        c.true('show verdict after: 3 runs, the chained frame dropped unrun',
               line + '  Runs: 3  Aborted-oob: 0  Aborted-helper: 0  Aborted-loop: 0  '
               'Linearized: 0  Multibuf-dropped: 1\n' in out)
        pls = fwdlib.pipeline_stats(out)
        c.true('pipeline stats printed', len(pls) >= 1)
        if pls:
            c.eq('rx, pass, drop', (pls[-1]['rx'], pls[-1]['pass'], pls[-1]['drop']),
                 (4, 3, 1))
        c.eq('telemetry /tagpipe/verdict', tel.get('/tagpipe/verdict'), {
            'pipeline': 'fwd-p0q0', 'program': 'bpf', 'path': LB, 'section': 'xdp',
            'function': 'xdp_lb', 'frags': 0, 'verified_by': 'tagpipe',
            'execution': 'jit', 'checks': 'checked', 'reason': reason})

        # 2. an MTU whose frames span mbufs: refused at start, by name
        eal = fwdlib.eal_args('tpfwd_bpfx2', [vdev])
        rc, out, err = fwdlib.run_prompt(eal, app + ['--max-pkt-len', '9018'],
                                         [('start', 0.5), ('quit', 0)])
        print(out)
        print(err, file=sys.stderr)
        c.eq('exit status (refused)', rc, 0)
        c.true('non-frags program refused for MTU 9000',
               'port 0: MTU 9000 admits frames of 9022 bytes (Ethernet header, two VLAN '
               "tags), more than an mbuf's data room of 2048: %s (section xdp) is not an "
               'xdp.frags program, and the kernel never gives one a frame of several '
               'buffers (use an xdp.frags program, a smaller --max-pkt-len or a larger '
               '--mbuf-size)' % LB in err)
        c.true('nothing forwarded', 'Pipeline statistics' not in out)

        # 3. the same MTU with an xdp.frags program, or buffers that hold it
        for name, extra in (('xdp.frags', ['--verdict', FRAGS]),
                            ('--mbuf-size 9300', ['--mbuf-size', '9300'])):
            eal = fwdlib.eal_args('tpfwd_bpfx3', [vdev])
            rc, out, err = fwdlib.run_prompt(
                eal, app + ['--max-pkt-len', '9018'] + extra,
                [('start', consumed(4)), ('stop', 0.2), ('show verdict', 0.2),
                 ('quit', 0)])
            print(out)
            print(err, file=sys.stderr)
            c.eq(name + ': exit status', rc, 0)
            c.true(name + ': started', 'error' not in err)
            c.true(name + ': all four frames run',
                   '  Runs: 4  Aborted-oob: 0' in out and 'Multibuf-dropped: 0' in out)
            c.eq(name + ': mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
    c.exit()


if __name__ == '__main__':
    main()
