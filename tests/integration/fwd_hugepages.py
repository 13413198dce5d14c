#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tagpipe-fwd on real 2 MiB hugepages: scripts/hugepages.sh mounts a
hugetlbfs under the build directory and reserves pages; tagpipe-fwd runs
with --huge-dir on it (no --no-huge), forwards demo.pcap in io mode, and the
test checks while it runs that hugepages are in use, then the frame counts,
that tagpipe-fwd and a tagpipe-replay hugepage run leave no runtime
directory, then that release gives the pages back. Skipped (77) where the machine does
not let us reserve the pages (not root, no 2 MiB pages, too little memory).

usage: fwd_hugepages.py [pcap|aqc]: the ports are net_pcap (default) or
net_aqc_sim, whose chip model must then take IOVAs as physical addresses
(the EAL picks IOVA as PA on hugepages without vfio)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

PAGES = 128          # 256 MiB: EAL + an 8192-mbuf pool, with room
SYS = '/sys/kernel/mm/hugepages/hugepages-2048kB'


def meminfo(key):
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith(key + ':'):
                return int(line.split()[1])
    return None


def main():
    if os.geteuid() != 0 or not os.path.isdir(SYS):
        print('SKIP: needs root and 2 MiB hugepages')
        sys.exit(fwdlib.SKIP)
    script = os.path.join(fwdlib.source_root(), 'scripts', 'hugepages.sh')
    mnt = os.path.join(fwdlib.build_root(), 'hugetlbfs-fwd-test-%d' % os.getpid())
    before = int(open(os.path.join(SYS, 'nr_hugepages')).read())
    r = subprocess.run([script, 'reserve', str(PAGES), mnt], capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        print('SKIP: cannot reserve %d hugepages here' % PAGES)
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    n = len(fwdlib.read_pcap(demo))
    seen = {}
    try:
        kind = sys.argv[1] if len(sys.argv) > 1 else 'pcap'
        if kind == 'aqc':
            ports = ['net_aqc_sim0,wire=pcap,rx_pcap=%s,tx_pcap=/dev/null' % demo,
                     'net_aqc_sim1,wire=pcap,rx_pcap=%s,tx_pcap=/dev/null' % demo]
        else:
            ports = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
                     'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % demo]
        eal = ['-l', '0-1', '--huge-dir', mnt, '--huge-unlink', '--no-pci',
               '--file-prefix=tpfwd_huge_%d' % os.getpid(),
               '--vdev', ports[0], '--vdev', ports[1]]

        def consumed(text):
            st = fwdlib.last_port_stats(text)
            return 0 in st and 1 in st and st[0]['rx'] == n and st[1]['rx'] == n

        def look():
            seen['total'] = meminfo('HugePages_Total')
            seen['free'] = meminfo('HugePages_Free')

        rc, out, err = fwdlib.run_prompt(eal, ['--forward-mode', 'io',
                                               '--total-num-mbufs', '8192'],
                                         [('start', consumed), (None, look),
                                          ('stop', 0.1), ('show port stats all', 0.1),
                                          ('quit', 0)], cleanup=False)
        print(out)
        print(err, file=sys.stderr)
        c.eq('exit status', rc, 0)
        if kind == 'aqc':
            # the case the chip model must translate (dma=auto)
            c.true('EAL chose IOVA as PA', "IOVA mode 'PA'" in out + err)
        c.true('EAL did not fall back to --no-huge',
               'no free hugepages' not in err and 'Static memory layout' not in err)
        c.true('hugepages in use while forwarding (%s of %s free)' %
               (seen.get('free'), seen.get('total')),
               seen.get('total') and seen.get('free') is not None and
               seen['free'] < seen['total'])
        st = fwdlib.last_port_stats(out)
        c.eq('port 0 RX', st.get(0, {}).get('rx'), n)
        c.eq('port 1 TX', st.get(1, {}).get('tx'), n)
        c.eq('mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
        # Issue 14: a hugepage run left /var/run/dpdk/<prefix>/ behind.
        rundir = fwdlib.runtime_dir(eal)
        c.true('tagpipe-fwd removed its runtime directory %s' % rundir,
               not os.path.exists(rundir))
        fwdlib.cleanup_runtime(eal)
        prefix = 'tpreplay_huge_%d' % os.getpid()
        r = subprocess.run([os.path.join(fwdlib.build_root(), 'apps', 'replay', 'tagpipe-replay'),
                            '-l', '0', '--huge-dir', mnt, '--huge-unlink', '--no-pci',
                            '--file-prefix=' + prefix, '--', '-i', demo, '--quiet'],
                           capture_output=True, text=True, timeout=120)
        print(r.stdout, r.stderr)
        c.eq('tagpipe-replay on hugepages: exit status', r.returncode, 0)
        c.true('tagpipe-replay on hugepages: no fallback', 'no free hugepages' not in r.stderr)
        c.true('tagpipe-replay removed its runtime directory',
               not os.path.exists(os.path.join(fwdlib.RUNTIME_DIR, prefix)))
    finally:
        r = subprocess.run([script, 'release', mnt], capture_output=True, text=True)
        print(r.stdout, r.stderr)
    c.eq('hugepages.sh release exit status', r.returncode, 0)
    c.eq('page count restored', int(open(os.path.join(SYS, 'nr_hugepages')).read()), before)
    c.true('mount point gone', not os.path.ismount(mnt))
    c.exit()


if __name__ == '__main__':
    main()
