#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tagpipe-fwd with an XDP object: --bpf-map fills its map before the run,
the prompt lists, dumps and sets map elements while the object stays the
one every pipeline instance shares. t_maps.o:xdp_lpm returns the value of
the longest prefix matching the IPv4 destination (tests/bpf/progs/t_maps.c);
the route 0.0.0.0/0 -> XDP_DROP drops the 4 untagged IPv4 frames of
in.pcap on each of the two ports (VLAN kept, so frame 7 is not IPv4 to
the program) and passes the other 4.

usage: fwd_bpf.py BUILD_TESTS_BPF_DIR"""
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
IN = os.path.join(BPF, 'in.pcap')


# the text the prompt's show prints is the text set takes, spaces and all
TYPED = 'routes:{prefixlen: 16, addr: 43200}=2'


def main():
    c = fwdlib.Checker()
    with tempfile.TemporaryDirectory(prefix='tpfwd_bpf') as tmp:
        vdevs = ['net_pcap%d,rx_pcap=%s,tx_pcap=%s' % (i, IN, os.path.join(tmp, 'o%d' % i))
                 for i in (0, 1)]
        app = ['--gro', 'off', '--port-vlan', '0:keep', '--port-vlan', '1:keep',
               '--verdict', os.path.join(BPF, 't_maps.o:xdp_lpm'),
               '--bpf-map', 'routes:0000000000000000=01000000']

        def consumed(text):
            st = fwdlib.last_port_stats(text)
            return 0 in st and 1 in st and st[0]['rx'] == 8 and st[1]['rx'] == 8

        eal = fwdlib.eal_args('tpfwd_bpf', vdevs)
        tel = {}

        def ask():
            # dpdk-telemetry.py (package dpdk) on the app's socket
            r = subprocess.run(['/usr/bin/python3', CLIENT, '-f',
                                os.path.basename(fwdlib.runtime_dir(eal))],
                               input='/tagpipe/bpf_map,routes\n', capture_output=True,
                               text=True, timeout=60)
            for line in r.stdout.splitlines():
                if line.strip().startswith('{'):
                    tel.update(json.loads(line.strip()))

        cmds = [('bpf map list', 0.2), ('bpf map dump routes', 0.2),
                ('start', consumed), (None, ask), ('stop', 0.2), ('show pipeline stats', 0.2),
                ('bpf map set routes:18000000c0a80100=03000000', 0.2),
                ('bpf map dump routes', 0.2), ('bpf map show routes', 0.2),
                ('bpf map delete routes:18000000c0a80100', 0.2),
                ('bpf map delete routes:18000000c0a80100', 0.2),
                ('bpf map delete routes:1800', 0.2),
                ('bpf map dump routes', 0.2),
                ('bpf map set ' + TYPED, 0.2), ('bpf map show routes', 0.2), ('quit', 0)]
        rc, out, err = fwdlib.run_prompt(eal, app, cmds)
        print(out)
        print(err, file=sys.stderr)
        c.eq('exit status', rc, 0)
        c.eq('mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
        errs = [ln for ln in err.splitlines() if 'tagpipe-fwd: error' in ln]
        c.eq('errors reported: the two bad deletes only', len(errs), 2)
        c.true('map listed', 'routes type 11 key 8 value 4 max_entries 16\n' in out)
        c.true('--bpf-map element dumped',
               '0000000000000000=01000000\n1 elements\n' in out)
        pls = fwdlib.pipeline_stats(out)
        c.true('pipeline stats printed', len(pls) >= 1)
        if pls:
            c.eq('rx', pls[0]['rx'], 16)
            c.eq('drop', pls[0]['drop'], 8)
            c.eq('pass', pls[0]['pass'], 8)
        c.eq('telemetry /tagpipe/bpf_map,routes', tel.get('/tagpipe/bpf_map'),
             {'type': 11, 'key_size': 8, 'value_size': 4, 'max_entries': 16,
              'ncpu': 1, 'elements': 1, 'values': {'0000000000000000': '01000000'}})
        c.true('prompt set', 'Set routes:18000000c0a80100=03000000\n' in out)
        c.true('both elements dumped', out.count('=01000000\n') == 3 and
               '18000000c0a80100=03000000\n' in out and '2 elements\n' in out)
        c.true('typed show (BTF struct route_key)',
               '{prefixlen: 24, addr: 108736} = 3\n' in out and
               '{prefixlen: 0, addr: 0} = 1\n' in out)
        c.true('prompt delete', 'Deleted routes:18000000c0a80100\n' in out)
        c.true('deleted again: no such element',
               "bpf map delete: 'routes:18000000c0a80100': no such element" in err)
        c.true('short key named', "bpf map delete: 'routes:1800': key '1800' is not 8 hex "
               "bytes" in err)
        c.true('one element left', out.count('1 elements\n') == 2)
        c.true('typed set with spaces, shown as typed',
               TYPED.split(':', 1)[1].replace('=', ' = ', 1) + '\n' in out)
    c.exit()


if __name__ == '__main__':
    main()
