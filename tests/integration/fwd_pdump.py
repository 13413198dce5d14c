#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Issue 26, item 1: DPDK's secondary-process tools work on a running
tagpipe-fwd, as they do on testpmd.

tagpipe-fwd runs with a shared configuration on 2 MiB hugepages
(scripts/hugepages.sh mounts a hugetlbfs under the build directory and
reserves pages; no --no-shconf), in rxonly mode, so a port's traffic is
exactly what it received. Port 0 is net_pcap, port 1 net_aqc_sim
(wire=pcap); both receive pcaps/demo.pcap.
  - dpdk-dumpcap -i 0 captures while tagpipe-fwd forwards: the pcapng holds
    exactly the capture's frames, byte for byte, in order;
  - the same from port 1, with the AQC plugins preloaded into dpdk-dumpcap
    (LD_PRELOAD: its EAL options are fixed, so no -d): the secondary must
    attach to the net_aqc_sim port (its model's state is in a memzone), and
    the pcapng hold the capture's frames as well;
  - dpdk-proc-info --stats shows port 0's counters as the prompt's "show
    port stats 0" does (net_pcap: a driver every secondary has).
Skipped (77) where the pages cannot be reserved (not root, no 2 MiB
pages, too little memory) or the tools are missing (Debian package dpdk)."""
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import ptyprompt  # noqa: E402

PAGES = 128
SYS = '/sys/kernel/mm/hugepages/hugepages-2048kB'
DUMPCAP = '/usr/bin/dpdk-dumpcap'
PROCINFO = '/usr/bin/dpdk-proc-info'


def pcapng_frames(path):
    """Packet data of every Enhanced Packet Block (type 6) of a pcapng,
    in file order (little- or big-endian sections)."""
    with open(path, 'rb') as f:
        data = f.read()
    frames, off, end = [], 0, '<'
    while off + 12 <= len(data):
        btype = struct.unpack(end + 'I', data[off:off + 4])[0]
        if btype == 0x0A0D0D0A:   # section header: its byte-order magic
            end = '<' if data[off + 8:off + 12] == b'\x4d\x3c\x2b\x1a' else '>'
        blen = struct.unpack(end + 'I', data[off + 4:off + 8])[0]
        if blen < 12:
            break
        if btype == 6:
            caplen = struct.unpack(end + 'I', data[off + 20:off + 24])[0]
            frames.append(data[off + 28:off + 28 + caplen])
        off += blen
    return frames


class Capture:
    """dpdk-dumpcap -q on one port, in a terminal (its "Capturing on" line
    is then not held in a stdio buffer), until stop()."""

    def __init__(self, prefix, port, path, env=None):
        self.p = ptyprompt.Prompt([DUMPCAP, '--file-prefix=' + prefix, '-i', str(port),
                                   '-q', '-w', path], 'Capturing on', timeout=30, env=env)
        self.ready = 'Capturing on' in self.p.log.decode(errors='replace')

    def text(self):
        return self.p.log.decode(errors='replace')

    def stop(self):
        try:
            os.kill(self.p.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
        for _ in range(300):
            if self.p.exited():
                break
            self.p.pump(0.1)
        else:
            self.p.kill()
            return None
        os.close(self.p.fd)
        return os.waitstatus_to_exitcode(self.p.status)


def main():
    if os.geteuid() != 0 or not os.path.isdir(SYS):
        print('SKIP: needs root and 2 MiB hugepages (a shared configuration)')
        sys.exit(fwdlib.SKIP)
    for tool in (DUMPCAP, PROCINFO):
        if not os.access(tool, os.X_OK):
            print('SKIP: %s missing (Debian package dpdk)' % tool)
            sys.exit(fwdlib.SKIP)
    script = os.path.join(fwdlib.source_root(), 'scripts', 'hugepages.sh')
    mnt = os.path.abspath(os.path.join(fwdlib.build_root(),
                                       'hugetlbfs-pdump-test-%d' % os.getpid()))
    r = subprocess.run([script, 'reserve', str(PAGES), mnt], capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        print('SKIP: cannot reserve %d hugepages here' % PAGES)
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    demo = os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap')
    want = fwdlib.read_pcap(demo)
    n = len(want)
    pmd_dir = os.path.join(fwdlib.build_root(), 'drivers', 'atlantic_pmd')
    # dpdk-dumpcap takes no -d: the two AQC plugins are preloaded instead.
    plugins = ' '.join(os.path.join(pmd_dir, x) for x in
                       ('librte_net_aqc.so.23', 'librte_net_aqc_sim.so.23'))
    prefix = 'tpops_pdump_%d' % os.getpid()
    out0 = os.path.join(mnt + '-port0.pcapng')
    out1 = os.path.join(mnt + '-port1.pcapng')
    fwd = None
    caps = []
    try:
        fwd = ptyprompt.Prompt(
            [fwdlib.fwd_binary(), '-l', '0-1', '--huge-dir', mnt, '--no-pci',
             '--file-prefix=' + prefix,
             '--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo,
             '--vdev', 'net_aqc_sim1,wire=pcap,rx_pcap=%s,tx_pcap=/dev/null' % demo,
             '--', '-i', '--forward-mode', 'rxonly', '--total-num-mbufs', '8192'],
            'tagpipe> ')
        c.true('tagpipe-fwd did not fall back to --no-shconf',
               'no free hugepages' not in fwd.banner)
        cap0 = Capture(prefix, 0, out0)
        caps.append(cap0)
        fwd.pump(0.5)
        c.true('dpdk-dumpcap -i 0 started capturing: ' + cap0.text()[-300:], cap0.ready)
        cap1 = Capture(prefix, 1, out1, dict(os.environ, LD_PRELOAD=plugins,
                                             LD_LIBRARY_PATH=pmd_dir))
        caps.append(cap1)
        fwd.pump(0.5)
        c.true('dpdk-dumpcap -i 1 (net_aqc_sim) started capturing: ' + cap1.text()[-300:],
               cap1.ready)
        fwd.cmd('start')
        # net_aqc_sim's pcap wire opens rx_delay_ms (100 by default) after
        # the first poll, so wait on time, not on a number of commands
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            st = fwdlib.last_port_stats(fwd.cmd('show port stats all'))
            if st.get(0, {}).get('rx') == n and st.get(1, {}).get('rx') == n:
                break
            time.sleep(0.02)
        fwd.cmd('stop')
        prompt_stats_all = fwdlib.last_port_stats(fwd.cmd('show port stats all'))
        prompt_stats = fwdlib.last_port_stats(fwd.cmd('show port stats 0'))
        # In a terminal, so its lines are out before it ends: Debian's
        # dpdk-proc-info 22.11 dies of SIGSEGV after printing the stats of
        # net_pcap ports, against dpdk-testpmd as against tagpipe-fwd.
        pi = ptyprompt.Prompt([PROCINFO, '--file-prefix=' + prefix, '--no-pci', '--',
                               '-p', '1', '--stats'], '\x00', timeout=60)
        while not pi.exited():
            fwd.pump(0.1)
        os.close(pi.fd)
        pi_out = pi.log.decode(errors='replace').replace('\r', '')
        print(pi_out)
        pi_rc = os.waitstatus_to_exitcode(pi.status)
        m = re.search(r'NIC statistics for port 0\s*#+\s*RX-packets:\s*(\d+)\s+RX-errors:\s*(\d+)'
                      r'\s+RX-bytes:\s*(\d+)\s*RX-nombuf:\s*(\d+)\s*TX-packets:\s*(\d+)\s+'
                      r'TX-errors:\s*(\d+)\s+TX-bytes:\s*(\d+)', pi_out)
        c.true('dpdk-proc-info ran (exit status %d: 0, or its own SIGSEGV after '
               'the stats)' % pi_rc, pi_rc in (0, -signal.SIGSEGV))
        p0 = prompt_stats.get(0, {})
        c.eq('dpdk-proc-info --stats port 0 = prompt (rx, rx_bytes, tx, tx_bytes, errors)',
             tuple(int(m.group(i)) for i in (1, 3, 5, 7, 2, 6)) if m else None,
             (p0.get('rx'), p0.get('rx_bytes'), p0.get('tx'), p0.get('tx_bytes'),
              p0.get('rx_errors'), p0.get('tx_errors')))
        c.eq('port 0 received the capture', p0.get('rx'), n)
        c.eq('port 1 (net_aqc_sim) received the capture',
             prompt_stats_all.get(1, {}).get('rx'), n)
        for port, cap, path, k in ((0, cap0, out0, n), (1, cap1, out1, n)):
            rc = cap.stop()
            print('dpdk-dumpcap -i %d said:\n%s' % (port, cap.text().replace('\r', '')))
            c.true('dpdk-dumpcap -i %d stopped (exit status %r)' % (port, rc), rc == 0)
            got = pcapng_frames(path) if os.path.exists(path) else []
            c.eq('port %d: the pcapng holds as many frames as the port received' % port,
                 len(got), k)
            c.true('port %d: the pcapng holds exactly the frames received, byte for '
                   'byte, in order' % port, got == want[:k])
        rc = fwd.close()
        fwd = None
        c.eq('tagpipe-fwd exit status', rc, 0)
    finally:
        for cap in caps:       # never leave a capture attached to the pages
            cap.p.kill()
        if fwd is not None:
            fwd.kill()
        for f in (out0, out1):
            if os.path.exists(f):
                os.unlink(f)
        r = subprocess.run([script, 'release', mnt], capture_output=True, text=True)
        print(r.stdout, r.stderr)
        fwdlib.cleanup_runtime(['--file-prefix=' + prefix])
    c.eq('hugepages.sh release exit status', r.returncode, 0)
    c.exit()


if __name__ == '__main__':
    main()
