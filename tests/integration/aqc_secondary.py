#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""net_aqc_sim ports seen from a secondary process: tagpipe-fwd (the
primary, net_aqc linked in) forwards demo.pcap between two net_aqc_sim
ports on 2 MiB hugepages (multi-process needs shared memory); Debian's
dpdk-proc-info, a secondary process of another binary that loads the two
plugins with -d, then reads the ports' statistics and xstats. Checks: the
secondary finds both ports, its counters are the frames forwarded (port 0
RX and port 1 TX = the capture's frames and bytes, the model's
model_pcap_frames_read too), and the primary forwards on after the
secondary has gone (its exit closed only its own view) and stops cleanly.
Skipped (77) without root, 2 MiB hugepages or dpdk-proc-info.

usage: aqc_secondary.py PLUGIN SIM_PLUGIN [MODEL]   (aqc107 or aqc113)"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

PAGES = 128
SYS = '/sys/kernel/mm/hugepages/hugepages-2048kB'
PROC_INFO = '/usr/bin/dpdk-proc-info'


def proc_info_stats(text, port):
    m = re.search(r'NIC statistics for port %d\s+#+\s*(.*?)#{10}' % port, text, re.S)
    if not m:
        return None
    s = m.group(1)

    def get(k):
        v = re.search(k + r':\s+(\d+)', s)
        return int(v.group(1)) if v else None
    return {'rx': get('RX-packets'), 'rx_bytes': get('RX-bytes'), 'tx': get('TX-packets'),
            'tx_bytes': get('TX-bytes')}


def main():
    plugin, sim_plugin = sys.argv[1], sys.argv[2]
    model = sys.argv[3] if len(sys.argv) > 3 else 'aqc107'
    if os.geteuid() != 0 or not os.path.isdir(SYS) or not os.access(PROC_INFO, os.X_OK):
        print('SKIP: needs root, 2 MiB hugepages and dpdk-proc-info')
        sys.exit(fwdlib.SKIP)
    script = os.path.join(fwdlib.source_root(), 'scripts', 'hugepages.sh')
    mnt = os.path.join(fwdlib.build_root(), 'hugetlbfs-aqc-secondary-%d' % os.getpid())
    r = subprocess.run([script, 'reserve', str(PAGES), mnt], capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        print('SKIP: cannot reserve %d hugepages here' % PAGES)
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    frames = fwdlib.read_pcap(demo)
    n, nbytes = len(frames), sum(len(f) for f in frames)
    prefix = 'tp_aqc_secondary_%d' % os.getpid()
    # the plugins where dpdk-proc-info may load them (not world-writable),
    # under their SONAMEs as installed
    work = fwdlib.plugin_dir('aqc-secondary-%d' % os.getpid())
    loads = []
    for path in (plugin, sim_plugin):
        soname = re.search(r'\(SONAME\).*\[(.*)\]', subprocess.run(
            ['readelf', '-d', path], capture_output=True, text=True, check=True).stdout).group(1)
        shutil.copy(path, os.path.join(work, soname))
        loads += ['-d', os.path.join(work, soname)]
    seen = {}
    try:
        eal = ['-l', '0-1', '--huge-dir', mnt, '--no-pci', '--file-prefix=' + prefix,
               '--vdev', 'net_aqc_sim0,wire=pcap,rx_pcap=%s,model=%s' % (demo, model),
               '--vdev', 'net_aqc_sim1,wire=pcap,tx_pcap=/dev/null,model=%s' % model]

        def consumed(text):
            st = fwdlib.last_port_stats(text)
            return 0 in st and 1 in st and st[0]['rx'] == n and st[1]['tx'] == n

        def secondary():
            # dpdk-proc-info shows one kind of statistics per run
            env = {k: v for k, v in os.environ.items() if k != 'LD_LIBRARY_PATH'}
            seen['rc'], seen['out'] = [], ''
            for what in ('--stats', '--xstats'):
                cmd = [PROC_INFO] + loads + ['--file-prefix=' + prefix, '--no-pci',
                                             '--log-level=pmd.net.aqc.*:info', '--', what]
                print('$', ' '.join(cmd), flush=True)
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
                print(p.stdout, p.stderr, flush=True)
                seen['rc'].append(p.returncode)
                seen['out'] += p.stdout

        rc, out, err = fwdlib.run_prompt(eal, ['--forward-mode', 'io',
                                               '--total-num-mbufs', '8192'],
                                         [('start', consumed), (None, secondary),
                                          ('show port stats all', 0.5),
                                          ('stop', 0.1), ('quit', 0)])
        print(out)
        print(err, file=sys.stderr)
        c.eq('tagpipe-fwd (primary) exit status', rc, 0)
        c.eq('dpdk-proc-info (secondary) exit status, --stats and --xstats',
             seen.get('rc'), [0, 0])
        text = seen.get('out', '')
        p0, p1 = proc_info_stats(text, 0), proc_info_stats(text, 1)
        c.true('the secondary sees both ports', p0 is not None and p1 is not None)
        if p0 and p1:
            c.eq('secondary: port 0 RX packets, bytes', (p0['rx'], p0['rx_bytes']), (n, nbytes))
            c.eq('secondary: port 1 TX packets, bytes', (p1['tx'], p1['tx_bytes']), (n, nbytes))
        got = re.findall(r'model_pcap_frames_read:\s+(\d+)', text)
        c.true('secondary: the model counters (model_pcap_frames_read %s on port 0)' % got,
               len(got) == 2 and int(got[0]) == n)
        st = fwdlib.last_port_stats(out)
        c.eq('primary after the secondary left: port 1 TX', st.get(1, {}).get('tx'), n)
        c.eq('primary: mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        r = subprocess.run([script, 'release', mnt], capture_output=True, text=True)
        print(r.stdout, r.stderr)
    c.exit()


if __name__ == '__main__':
    main()
