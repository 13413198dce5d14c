#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The forwarding core beside dpdk-testpmd: cycles per frame, merge ratio,
the budget a 10GbE and a 25GbE port leave. Prints tables; never fails on a
figure (exit 77 without /usr/bin/dpdk-testpmd; 1 only when no run gives
any figure: a run without figures is tried once more, then listed).

Both applications forward the same frames between the same two ports of
the same PMD: net_aqc (our driver) on two net_aqc_sim chip models, port 0
replaying a capture without end (wire=pcap, rx_loops=0: paced by ring room,
lossless), port 1 transmitting to a wire that discards (wire=pcap without
tx_pcap). Chained topology: the stream is port 0 -> port 1.

Busy cycles per received frame, two ways, each the same for both apps:
- record-core-cycles: testpmd's --record-core-cycles (app/test-pmd/
  testpmd.h get_start_cycles/get_end_cycles: TSC read before the RX burst,
  added at the end of the burst's work, only for bursts that received
  something or, with GRO holding packets, flushed) and tagpipe-fwd's
  --record-core-cycles (apps/fwd/fwd.h, the same rule). testpmd 22.11's
  csum engine with `set gro flush` 2..4 returns before adding the cycles of
  a burst its GRO context kept whole (csumonly.c: `if (nb_rx == 0)
  return;` after rte_gro_reassemble), so its figure there leaves out the
  RX, parse and merge of those bursts: a lower bound, marked +.
- wall-clock busy: the forwarding lcore's time from start to stop minus
  its polls that found nothing, each at the cost of one poll loop turn of
  that very configuration with a silent wire (a calibration run), over the
  frames received. It counts every burst whatever the application does,
  so it is the column that compares like with like; where both counters
  are complete the two columns agree to within the calibration's error
  (testpmd prints the share of empty polls as a truncated whole percent).
The chip models run in their own threads, which inherit the EAL main
thread's CPU (lcore 0); the forwarding lcore is alone on lcore 1, so the
models' work is in neither figure. What the models do decide is the
arrival pattern: they deliver as fast as they copy, and a forwarding core
faster than them sees small bursts (the RX-bursts column); both
applications see the same supply.

Configurations (state of the art for each, as a user would set them):
- testpmd io: frames out unchanged (its default MBUF_FAST_FREE).
- testpmd csum: parse, checksums offloaded (csum set ip hw 1, csum set tcp
  hw 1 on the TX port), GRO off.
- testpmd csum+GRO+GSO: `set port 0 gro on`, `set port 1 gso on`, GSO
  segment size 1514 (testpmd's default), `set gro flush F` for F = 1..4
  (1 = librte_gro's lightweight mode per burst; 2..4 = heavyweight, all
  flushed every F-th busy poll), the best F kept and named; MBUF_FAST_FREE
  off on both ports (librte_gso's indirect mbufs must not be fast-freed:
  with it on, testpmd leaks mbufs until GSO fails).
- tagpipe-fwd io.
- tagpipe-fwd pipeline (DSA untag, VLAN untag, GRO, verdict pass, PASS
  forwarded with GSO in software and the TCP checksums left to the NIC,
  as testpmd's csum engine does): --gro off, burst, age:USEC.
Merge ratio: tagpipe-fwd prints its own (GRO-in / GRO-out); testpmd prints
none, so one extra run with GSO off counts what its GRO emitted (frames
received over packets sent + refused).

Inputs (tests/bench/gen_flows.py: in-order 1448-byte TCP segments, 1514-byte
frames): 1, 32 and 256 flows; the 32-flow one also VLAN-tagged (VID 100,
both apps) and DSA-tagged (Marvell "dsa" FORWARD tag, switch port 1:
tagpipe only, testpmd cannot read a switch tag); the demo capture's mix;
64-byte UDP frames for the small-frame budget.

Environment: SECONDS (3) per run, RUNS (3) repeats alternating the two
applications, FLOWS ("1 32 256"). Median and min..max over the runs.
"""
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'integration'))
import fwdlib  # noqa: E402

TESTPMD = '/usr/bin/dpdk-testpmd'
SECONDS = float(os.environ.get('SECONDS', '3'))
RUNS = int(os.environ.get('RUNS', '3'))
FLOWS = [int(x) for x in os.environ.get('FLOWS', '1 32 256').split()]
FLUSHES = [int(x) for x in os.environ.get('GRO_FLUSHES', '1 2 3 4').split()]
AGE_USEC = int(os.environ.get('AGE_USEC', '20'))
# Line rates in frames/s: 10GbE and 25GbE, 20 bytes of preamble, SFD and
# inter-frame gap per frame (IEEE 802.3 clause 4), frame length with CRC.
RATES = {'10GbE': 10e9, '25GbE': 25e9}

FAILED = []


def line_pps(rate_bps, frame_len):
    return rate_bps / ((frame_len + 20) * 8)


# ---- inputs ----

def rewrite_pcap(src, dst, edit):
    """Copy a classic pcap, each frame passed through edit(bytes)."""
    with open(src, 'rb') as f:
        data = f.read()
    out = [data[:24]]
    end = '<' if struct.unpack('<I', data[:4])[0] in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    off = 24
    while off + 16 <= len(data):
        ts1, ts2, incl, orig = struct.unpack(end + 'IIII', data[off:off + 16])
        frame = edit(data[off + 16:off + 16 + incl])
        out.append(struct.pack(end + 'IIII', ts1, ts2, len(frame), len(frame)) + frame)
        off += 16 + incl
    with open(dst, 'wb') as f:
        f.write(b''.join(out))


def make_inputs(work):
    py = os.environ.get('PYTHON', '/usr/bin/python3')
    gen = os.path.join(HERE, 'gen_flows.py')
    inputs = {}
    for n in FLOWS:
        p = os.path.join(work, 'flows%d.pcap' % n)
        if not os.path.exists(p):
            subprocess.run([py, gen, p, str(n), str(max(4096, 32 * n))], check=True)
        inputs['tcp %d flows' % n] = (p, 1518, None)
    base = os.path.join(work, 'flows32.pcap')
    if not os.path.exists(base):
        subprocess.run([py, gen, base, '32', '4096'], check=True)
    vlan = os.path.join(work, 'flows32_vlan.pcap')
    rewrite_pcap(base, vlan, lambda f: f[:12] + b'\x81\x00\x00\x64' + f[12:])
    inputs['tcp 32 flows, VLAN'] = (vlan, 1522, None)
    # Marvell DSA FORWARD tag in the EtherType slot: command 3, device 0,
    # source port 1 (docs/ref/dsa-tags.md, tag_dsa), then the EtherType.
    dsa = os.path.join(work, 'flows32_dsa.pcap')
    rewrite_pcap(base, dsa, lambda f: f[:12] + b'\xc0\x08\x00\x00' + f[12:])
    inputs['tcp 32 flows, DSA'] = (dsa, 1522, 'dsa')
    inputs['demo mix'] = (os.path.join(fwdlib.source_root(), 'pcaps', 'demo.pcap'), None, None)
    small = os.path.join(work, 'udp64.pcap')
    if not os.path.exists(small):
        subprocess.run([py, '-c', '''
import sys
from scapy.all import Ether, IP, UDP, Raw, wrpcap
fr = [Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
      IP(src="10.0.%d.1" % (i & 255), dst="10.200.0.2") / UDP(sport=1000 + i, dport=9) /
      Raw(b"x" * 18) for i in range(1024)]
wrpcap(sys.argv[1], fr)
''', small], check=True)
    inputs['udp 64 B'] = (small, 64, None)
    return inputs


# ---- running the applications ----

class Env:
    def __init__(self, work, plugins=None):
        # the plugins where DPDK's loader takes them (no world-writable
        # directory above), under their SONAMEs
        self.plug = fwdlib.plugin_dir('fwd-testpmd')
        self.loads = []
        if plugins is None:
            d = os.path.join(fwdlib.build_root(), 'drivers', 'atlantic_pmd')
            plugins = [os.path.join(d, n) for n in ('librte_net_aqc.so.23.0',
                                                    'librte_net_aqc_sim.so.23.0')]
        for src in plugins:
            dst = os.path.join(self.plug, re.sub(r'\.\d+$', '', os.path.basename(src))
                               if src.endswith('.0') else os.path.basename(src))
            shutil.copy(src, dst)
            self.loads += ['-d', dst]
        self.work = work
        self.n = 0

    def eal(self, pcap, lcores='0-1'):
        """pcap None: port 0's wire stays silent (the idle calibration)."""
        self.n += 1
        self.prefix = 'tpbench_fwd_%d_%d' % (os.getpid(), self.n)
        rx = ',rx_pcap=%s,rx_loops=0' % pcap if pcap else ''
        return (['-l', lcores, '--no-huge', '--no-shconf', '-m', '1024', '--no-pci',
                 '--file-prefix=' + self.prefix] + self.loads +
                ['--vdev', 'net_aqc_sim0,wire=pcap' + rx,
                 '--vdev', 'net_aqc_sim1,wire=pcap'])


class Output:
    """The child's output, read on a thread as it comes (a prompt ends
    without a newline, so not line by line)."""

    def __init__(self, f):
        import threading
        self.chunks = []
        self.t = threading.Thread(target=self._run, args=(f,), daemon=True)
        self.t.start()

    def _run(self, f):
        while True:
            b = os.read(f.fileno(), 65536)
            if not b:
                return
            self.chunks.append(b.decode(errors='replace'))

    def text(self):
        return ''.join(self.chunks)

    def wait_for(self, what, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if what in self.text():
                return True
            time.sleep(0.05)
        return False


def drive(argv, prefix, prompt):
    """Wait for the prompt (the command file done, ports started), start,
    forward SECONDS, stop, quit: the whole output and the seconds from
    start to stop."""
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    out = Output(p.stdout)
    window = None

    def send(line):
        p.stdin.write((line + '\n').encode())
        p.stdin.flush()
    try:
        out.wait_for(prompt, 60)
        # testpmd may show its prompt while it still runs the command file
        # (port stop/start): give it that time; links come up ~20 ms after
        time.sleep(1.5)
        send('start')
        t0 = time.monotonic()
        time.sleep(SECONDS)
        send('stop')
        window = time.monotonic() - t0
        # testpmd's statistics sit in its stdio buffer until it exits:
        # nothing to wait for but the lcores' stop
        time.sleep(0.5)
        send('quit')
        p.stdin.close()
        p.wait(timeout=60)
    except Exception:
        p.kill()
        p.wait()
    finally:
        fwdlib.cleanup_runtime(['--file-prefix=' + prefix])
    out.t.join(5)
    return out.text(), window


CYC = re.compile(r'CPU cycles/packet=([\d.]+) \(total cycles=(\d+) / total \w+ packets=(\d+)\)'
                 r' at (\d+) MHz')
ACC = re.compile(r'Accumulated forward statistics.*?RX-packets:\s+(\d+).*?TX-packets:\s+(\d+)\s+'
                 r'TX-dropped:\s+(\d+)', re.S)
BURSTS = re.compile(r'RX-bursts : (\d+) \[(\d+)% of 0 pkts(.*?)\]')
MERGE = re.compile(r'Merge-ratio:\s+([\d.]+)')


def parse(res, what, idle=False, final=True):
    """The figures of one run, or None (a failure only when final)."""
    out, window = res
    m, a = CYC.search(out), ACC.search(out)
    b = BURSTS.search(out)      # port 0's block comes first: its RX stream
    if idle:
        if b is None or window is None:
            if not final:
                return None
            FAILED.append(what)
            sys.stderr.write('--- %s: no burst counts in its output:\n%s\n' % (what, out[-3000:]))
            return None
        # one poll loop iteration (both streams polled, nothing received)
        return {'iter_s': window / int(b.group(1))}
    if m is None or a is None:
        if not final:
            return None
        FAILED.append(what)
        sys.stderr.write('--- %s: no figures in its output:\n%s\n' % (what, out[-3000:]))
        return None
    r = {'cpp': float(m.group(1)), 'cycles': int(m.group(2)), 'rx': int(a.group(1)),
         'tx': int(a.group(2)), 'txdrop': int(a.group(3)), 'mhz': int(m.group(4))}
    r['bursts'] = b.group(0)[len('RX-bursts : '):] if b else ''
    # for the wall-clock estimate: polls of port 0 that found nothing
    # (testpmd prints the share truncated to a whole percent)
    r['window'] = window
    # testpmd's GSO marks every TCP packet for segmentation; librte_gso
    # 22.11 segments TCP/IPv4 only and leaves the mark on the rest, whose
    # TSO request (tso_segsz 0) the PMD's tx_prepare refuses: one line
    # per refused burst on testpmd's console
    r['prep_fail'] = out.count('Preparing packet burst to transmit failed')
    r['empty'] = int(b.group(1)) * int(b.group(2)) / 100.0 if b else None
    g = MERGE.search(out)
    r['merge'] = float(g.group(1)) if g else None
    return r


def drive_twice(env, argv, prompt, what, idle):
    """A run, and once more if it gave no figures (a loaded machine can
    be slow to bring the ports up); the second failure is counted."""
    for final in (False, True):
        r = parse(drive(argv, env.prefix, prompt), what, idle, final)
        if r is not None:
            return r
    return None


def testpmd_cmds(mode, flush=None, gso=True):
    c = ['port stop all']
    if mode == 'csum':
        c += ['port config 0 tx_offload mbuf_fast_free off',
              'port config 1 tx_offload mbuf_fast_free off',
              'set fwd csum', 'csum set ip hw 1', 'csum set tcp hw 1']
    else:
        c += ['set fwd io']
    c += ['port start all']
    if flush is not None:
        c += ['set port 0 gro on', 'set gro flush %d' % flush]
        if gso:
            c += ['set port 1 gso on']
    return c


def run_testpmd(env, pcap, mode, flush=None, gso=True, idle=False):
    eal = env.eal(None if idle else pcap)
    cf = os.path.join(env.work, 'testpmd_%d.cmd' % os.getpid())
    with open(cf, 'w') as f:
        f.write('\n'.join(testpmd_cmds(mode, flush, gso)) + '\n')
    argv = [TESTPMD] + eal + ['--', '-i', '--port-topology=chained', '--record-core-cycles',
                               '--record-burst-stats', '--total-num-mbufs=32768',
                               '--cmdline-file=' + cf]
    return drive_twice(env, argv, 'testpmd> ', 'testpmd %s flush=%s' % (mode, flush), idle)


def run_tagpipe(env, pcap, mode, gro=None, tagger=None, idle=False):
    eal = env.eal(None if idle else pcap)
    argv = [fwdlib.fwd_binary()] + eal + ['--', '-i', '--port-topology', 'chained',
                                          '--record-core-cycles', '--record-burst-stats',
                                          '--total-num-mbufs', '32768',
                                          '--forward-mode', mode]
    if gro is not None:
        argv += ['--gro', gro]
    if tagger is not None:
        argv += ['--port-tagger', '0:' + tagger]
    return drive_twice(env, argv, 'tagpipe> ', 'tagpipe-fwd %s gro=%s' % (mode, gro), idle)


# ---- figures ----

def summary(rs, key='cpp'):
    v = [r[key] for r in rs if r is not None and r.get(key) is not None]
    if not v:
        return None, None, None
    return statistics.median(v), min(v), max(v)


def fmt(rs, key='cpp', nd=0):
    med, lo, hi = summary(rs, key)
    if med is None:
        return 'n/a'
    return '%.*f (%.*f..%.*f)' % (nd, med, nd, lo, nd, hi)


def main():
    if not os.access(TESTPMD, os.X_OK):
        print('SKIP: no %s (Debian package dpdk)' % TESTPMD)
        return 77
    work = os.path.join(fwdlib.build_root(), 'tests', 'bench', 'fwd-testpmd')
    os.makedirs(work, exist_ok=True)
    env = Env(work, sys.argv[1:3] if len(sys.argv) >= 3 else None)
    inputs = make_inputs(work)
    print('tagpipe-fwd beside dpdk-testpmd 22.11: same frames, same PMD (net_aqc on '
          'net_aqc_sim), one forwarding lcore each; %g s per run, %d runs alternating; '
          'memory in 4 KiB pages (--no-huge) for both.' % (SECONDS, RUNS))
    print('CPU cycles/packet: busy cycles of the forwarding lcore per received frame, '
          'median (min..max).\n')
    results = {}
    idle = {}
    for name, (pcap, flen, tagger) in inputs.items():
        bulk = name.startswith('tcp')
        gro_input = tagger is None and (bulk or name == 'demo mix')
        # (label, key of its idle calibration, runner(pcap, idle))
        cfgs = []
        if tagger is None:
            cfgs.append(('testpmd io', 'tpmd io',
                         lambda p, i: run_testpmd(env, p, 'io', idle=i)))
        cfgs.append(('tagpipe-fwd io', 'tp io', lambda p, i: run_tagpipe(env, p, 'io', idle=i)))
        if tagger is None:
            cfgs.append(('testpmd csum, GRO off', 'tpmd csum',
                         lambda p, i: run_testpmd(env, p, 'csum', idle=i)))
        cfgs.append(('tagpipe-fwd pipeline, GRO off', 'tp off',
                     lambda p, i: run_tagpipe(env, p, 'pipeline', 'off', tagger, idle=i)))
        if gro_input:
            for fl in FLUSHES:
                cfgs.append(('testpmd csum+GRO+GSO, flush %d' % fl, 'tpmd flush %d' % fl,
                             lambda p, i, fl=fl: run_testpmd(env, p, 'csum', fl, idle=i)))
        cfgs.append(('tagpipe-fwd pipeline, GRO burst+GSO', 'tp burst',
                     lambda p, i: run_tagpipe(env, p, 'pipeline', 'burst', tagger, idle=i)))
        cfgs.append(('tagpipe-fwd pipeline, GRO age:%d+GSO' % AGE_USEC, 'tp age',
                     lambda p, i: run_tagpipe(env, p, 'pipeline', 'age:%d' % AGE_USEC, tagger,
                                              idle=i)))
        for label, key, fn in cfgs:
            if key not in idle:
                idle[key] = fn(None, True)
        rows = {}
        for _ in range(RUNS):
            for label, key, fn in cfgs:
                r = fn(pcap, False)
                if r is not None and idle.get(key) and r['empty'] is not None and r['rx'] > 0:
                    busy_s = r['window'] - r['empty'] * idle[key]['iter_s']
                    r['wall_cpp'] = busy_s * r['mhz'] * 1e6 / r['rx']
                rows.setdefault(label, []).append(r)
        # testpmd's merge ratio at each flush: its GRO's output counted with GSO off
        merge = {}
        if gro_input:
            for fl in FLUSHES:
                r = run_testpmd(env, pcap, 'csum', fl, gso=False)
                if r is not None and r['tx'] + r['txdrop'] > 0:
                    merge[fl] = r['rx'] / (r['tx'] + r['txdrop'])
        gro_rows = [k for k in rows if k.startswith('testpmd csum+GRO') and
                    not any(x and x.get('prep_fail') for x in rows[k])]
        # testpmd's best flush by the measure that counts every burst
        best = min(gro_rows, key=lambda k: summary(rows[k], 'wall_cpp')[0] or 1e18) \
            if gro_rows else None
        print('== %s (%s)%s' % (name, os.path.basename(pcap),
                                ', tagpipe only: testpmd reads no switch tag' if tagger else ''))
        print('  %-38s %-22s %-22s %-6s %-13s %s' % (
            'path', 'record-core-cycles', 'wall-clock busy', 'merge', 'Mpps in/out',
            'RX-bursts (last run)'))
        for label, rs in rows.items():
            mr = ''
            if label.startswith('tagpipe-fwd pipeline') and 'off' not in label:
                med = summary(rs, 'merge')[0]
                mr = '%.2f' % med if med else ''
            if label.startswith('testpmd csum+GRO'):
                fl = int(label.rsplit(' ', 1)[1])
                mr = '%.2f' % merge[fl] if fl in merge else ''
            # frames in and out (TX + refused: what left the application)
            rx = summary([dict(x, mpps=x['rx'] / x['window'] / 1e6) for x in rs if x], 'mpps')[0]
            tx = summary([dict(x, mpps=(x['tx'] + x['txdrop']) / x['window'] / 1e6)
                          for x in rs if x], 'mpps')[0]
            last = next((x['bursts'] for x in reversed(rs) if x), '')
            under = label.startswith('testpmd csum+GRO') and not label.endswith(' 1')
            broken = any(x and x.get('prep_fail') for x in rs)
            print('  %-38s %-22s %-22s %-6s %-13s %s' % (
                label + (' *' if label == best else '') + (' !' if broken else ''),
                fmt(rs) + (' +' if under else ''), fmt(rs, 'wall_cpp'), mr,
                '%.3f/%.3f' % (rx, tx) if rx is not None and tx is not None else 'n/a', last))
        if any(x and x.get('prep_fail') for rs in rows.values() for x in rs):
            print('  ! testpmd refused bursts at tx_prepare: its GSO (librte_gso 22.11) '
                  'segments TCP/IPv4 only and leaves the segmentation request on TCP/IPv6 '
                  'packets, which the PMD rejects (tso_segsz 0); it prints a line per '
                  'burst, so these figures measure its console, not its forwarding')
        if best is not None:
            print('  * testpmd\'s best GRO flush setting here (wall-clock busy cycles)')
            print('  + testpmd leaves out of its count every burst its GRO context kept whole '
                  '(csumonly.c returns before get_end_cycles): a lower bound')
        pairs = [('tagpipe-fwd pipeline, GRO burst+GSO', best),
                 ('tagpipe-fwd pipeline, GRO age:%d+GSO' % AGE_USEC, best),
                 ('tagpipe-fwd pipeline, GRO burst+GSO', 'testpmd csum+GRO+GSO, flush 1'),
                 ('tagpipe-fwd io', 'testpmd io'),
                 ('tagpipe-fwd pipeline, GRO off', 'testpmd csum, GRO off'),
                 ('tagpipe-fwd pipeline, GRO off', 'testpmd io')]
        for a, b in pairs:
            if b in rows and a in rows and not any(x and x.get('prep_fail') for x in rows[b]):
                v = []
                for key in ('cpp', 'wall_cpp'):
                    ra, rb = summary(rows[a], key)[0], summary(rows[b], key)[0]
                    v.append('%.2fx' % (ra / rb) if ra and rb else 'n/a')
                print('  ratio %s / %s: %s (record-core-cycles), %s (wall-clock busy)' % (
                    a, b, v[0], v[1]))
        results[name] = (rows, flen, best)
        print()
    mhz = next((r['mhz'] for rows, _, _ in results.values() for rs in rows.values()
                for r in rs if r), None)
    if mhz:
        print('== Budget: TSC cycles per frame a port at line rate leaves (TSC %d MHz),'
              ' against each path\'s median wall-clock busy cycles' % mhz)
        for name in ('udp 64 B', 'tcp 32 flows'):
            if name not in results:
                continue
            rows, flen, best = results[name]
            budgets = {k: mhz * 1e6 / line_pps(v, flen) for k, v in RATES.items()}
            print('  %s: %d-byte frames: 10GbE %.2f Mpps -> %.0f cycles, 25GbE %.2f Mpps -> '
                  '%.0f cycles' % (name, flen, line_pps(10e9, flen) / 1e6, budgets['10GbE'],
                                   line_pps(25e9, flen) / 1e6, budgets['25GbE']))
            for label, rs in rows.items():
                med = summary(rs, 'wall_cpp')[0]
                if med:
                    print('    %-40s %7.0f   %5.2f of 10GbE, %5.2f of 25GbE' % (
                        label, med, med / budgets['10GbE'], med / budgets['25GbE']))
    if FAILED:
        # a run that gave nothing twice (a machine too loaded to bring the
        # ports up in time) is reported; only a tool that never gives a
        # figure is a failure
        print('runs without figures: %s' % ', '.join(FAILED))
        if not any(r for rows, _, _ in results.values() for rs in rows.values() for r in rs):
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
