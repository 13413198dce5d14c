# SPDX-License-Identifier: BSD-3-Clause
"""Helpers for driving tagpipe-fwd from integration tests.

EAL: --no-huge --no-shconf with a unique --file-prefix (DPDK 22.11 refuses
--no-huge with --in-memory), two lcores (main + one forwarding lcore).
"""
import os
import re
import signal
import subprocess
import sys
import time

SKIP = 77


def plugin_dir(name):
    """A new directory (mode 0755) that DPDK's plugin loader accepts: no
    directory above it may be world-writable (eal_common_options.c,
    verify_perms). Under the build directory when that holds, else under
    /run, so a build in /tmp still loads its plugins. Removed at exit."""
    import atexit
    import shutil
    import stat
    import tempfile
    base = os.path.abspath(build_root())
    p = base
    while True:
        if os.stat(p).st_mode & stat.S_IWOTH:
            base = '/run'
            break
        if p == '/':
            break
        p = os.path.dirname(p)
    d = tempfile.mkdtemp(prefix=name + '-', dir=base)
    os.chmod(d, 0o755)
    atexit.register(shutil.rmtree, d, True)
    return d


def build_root():
    return os.environ.get('TP_BUILD_ROOT', os.getcwd())


def source_root():
    return os.environ.get('TP_SOURCE_ROOT',
                          os.path.dirname(os.path.dirname(os.path.dirname(
                              os.path.abspath(__file__)))))


def fwd_binary():
    return os.path.join(build_root(), 'apps', 'fwd', 'tagpipe-fwd')


RUNTIME_DIR = '/var/run/dpdk'


def runtime_dir(eal):
    """The EAL runtime directory of a run with these EAL arguments (the
    telemetry socket lives there, --no-shconf or not)."""
    for a in eal:
        if a.startswith('--file-prefix='):
            return os.path.join(RUNTIME_DIR, a.split('=', 1)[1])
    return None


def cleanup_runtime(eal):
    """Remove the runtime directory our own unique --file-prefix left."""
    import shutil
    d = runtime_dir(eal)
    if d is not None and os.path.basename(d).startswith('tp'):
        shutil.rmtree(d, ignore_errors=True)


def eal_args(prefix, vdevs, extra=()):
    a = ['-l', '0-1', '--no-huge', '--no-shconf', '-m', '512', '--no-pci',
         '--file-prefix=%s_%d' % (prefix, os.getpid())]
    for v in vdevs:
        a += ['--vdev', v]
    return a + list(extra)


class _Drain:
    """Read a pipe on a thread so the child never blocks on a full pipe."""

    def __init__(self, f):
        import threading
        self.chunks = []
        self.t = threading.Thread(target=self._run, args=(f,), daemon=True)
        self.t.start()

    def _run(self, f):
        for line in f:
            self.chunks.append(line)

    def text(self):
        self.t.join()
        return ''.join(self.chunks)


def _wait_until(drain, pred, timeout, poke=None):
    """Wait until pred(output so far) holds; call poke() between looks.
    Returns whether pred held before the timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred(''.join(drain.chunks)):
            return True
        if poke is not None:
            poke()
        time.sleep(0.2)
    return pred(''.join(drain.chunks))


def run_prompt(eal, app, commands, timeout=60, cleanup=True):
    """Run tagpipe-fwd -i and feed it commands, return (returncode, stdout,
    stderr). Each command is (line, wait): wait is seconds to sleep, or a
    predicate on the output so far; with a predicate, 'show port stats all'
    is sent every 0.2 s until it holds (at most 30 s). cleanup=False leaves
    the runtime directory to the app (for tests that it removes it)."""
    cmd = [fwd_binary()] + eal + ['--', '-i'] + app
    print('$', ' '.join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    out, err = _Drain(p.stdout), _Drain(p.stderr)

    def send(line):
        p.stdin.write(line + '\n')
        p.stdin.flush()
    try:
        for line, wait in commands:
            if line is None:        # an action to run while the app runs
                wait()
                continue
            send(line)
            if callable(wait):
                if not _wait_until(out, wait, 30,
                                   lambda: send('show port stats all')):
                    print('timed out waiting after %r' % line, flush=True)
            else:
                time.sleep(wait)
        p.stdin.close()
        p.wait(timeout=timeout)
    except BaseException:
        p.kill()
        p.wait()
        raise
    finally:
        if cleanup:
            cleanup_runtime(eal)
    return p.returncode, out.text(), err.text()


def run_batch(eal, app, until, sig=signal.SIGINT, timeout=60):
    """Run tagpipe-fwd without -i until until(stdout so far) holds (at most
    30 s), then send sig. Returns (returncode, stdout, stderr)."""
    cmd = [fwd_binary()] + eal + ['--'] + app
    print('$', ' '.join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = _Drain(p.stdout), _Drain(p.stderr)
    if not _wait_until(out, until, 30):
        print('timed out waiting for the condition', flush=True)
    p.send_signal(sig)
    try:
        p.wait(timeout=timeout)
    except BaseException:
        p.kill()
        p.wait()
        raise
    finally:
        cleanup_runtime(eal)
    return p.returncode, out.text(), err.text()


_BLOCK = re.compile(
    r'NIC statistics for port (\d+)\s*#+\s*'
    r'RX-packets:\s*(\d+)\s+RX-missed:\s*(\d+)\s+RX-bytes:\s*(\d+)\s*'
    r'RX-errors:\s*(\d+)\s*RX-nombuf:\s*(\d+)\s*'
    r'TX-packets:\s*(\d+)\s+TX-errors:\s*(\d+)\s+TX-bytes:\s*(\d+)')


def last_port_stats(text):
    """{port: stats} of the most recent block for each port in text."""
    return dict(port_stats(text))


def port_stats(text):
    """Every 'show port stats' block in text, in order:
    [(port, {'rx':..,'rx_bytes':..,'tx':..,'tx_bytes':..,...}), ...]."""
    res = []
    for m in _BLOCK.finditer(text):
        v = [int(x) for x in m.groups()]
        res.append((v[0], {'rx': v[1], 'rx_missed': v[2], 'rx_bytes': v[3],
                           'rx_errors': v[4], 'rx_nombuf': v[5], 'tx': v[6],
                           'tx_errors': v[7], 'tx_bytes': v[8]}))
    return res


_FWD = re.compile(r'Forward Stats for RX Port=\s*(\d+)/Queue=\s*(\d+) -> '
                  r'TX Port=\s*(\d+)/Queue=\s*(\d+)\s*-+\s*'
                  r'RX-packets:\s*(\d+)\s+TX-packets:\s*(\d+)\s+'
                  r'TX-dropped:\s*(\d+)(?:[ \t]+Passed-frames:\s*(\d+)\s+'
                  r'Passed-packets:\s*(\d+))?')


def fwd_stats(text):
    """Every per-stream forward stats line: [(rxp, rxq, txp, txq, rx, tx,
    dropped, passed_frames), ...] (all frames; passed_frames 0 outside
    pipeline mode, which alone prints the Passed columns)."""
    return [tuple(int(x or 0) for x in m.groups())[:8] for m in _FWD.finditer(text)]


def fwd_stats_passed_packets(text):
    """The Passed-packets column of every per-stream line (a packet GRO
    merged counts once)."""
    return [int(m.group(9) or 0) for m in _FWD.finditer(text)]


_PORT_FWD = re.compile(
    r'Forward statistics for port (\d+)\s*-+\s*'
    r'RX-packets:\s*(\d+)\s+RX-dropped:\s*(\d+)\s*RX-total:\s*(\d+)\s*'
    r'(?:RX-error:\s*\d+\s*RX-nombufs:\s*\d+\s*)?'
    r'TX-packets:\s*(\d+)\s+TX-dropped:\s*(\d+)\s*TX-total:\s*(\d+)')


def fwd_port_stats(text):
    """Every per-port forward statistics block (testpmd's): [(port,
    {'rx','rx_dropped','tx','tx_dropped'}), ...]."""
    return [(int(m.group(1)), {'rx': int(m.group(2)), 'rx_dropped': int(m.group(3)),
                               'tx': int(m.group(5)), 'tx_dropped': int(m.group(6))})
            for m in _PORT_FWD.finditer(text)]


_ACC = re.compile(
    r'Accumulated forward statistics for all ports\+*\s*'
    r'RX-packets:\s*(\d+)\s+RX-dropped:\s*(\d+)\s*RX-total:\s*(\d+)\s*'
    r'TX-packets:\s*(\d+)\s+TX-dropped:\s*(\d+)\s*TX-total:\s*(\d+)')


def fwd_accumulated(text):
    """Every accumulated forward statistics block: [{'rx','rx_dropped',
    'tx','tx_dropped'}, ...]."""
    return [{'rx': int(m.group(1)), 'rx_dropped': int(m.group(2)),
             'tx': int(m.group(4)), 'tx_dropped': int(m.group(5))}
            for m in _ACC.finditer(text)]


_SEG = re.compile(r'Segmented: (\d+)\s+TSO: (\d+)')


def pipeline_segmented(text):
    """(Segmented, TSO) of every 'show pipeline stats' block."""
    return [(int(a), int(b)) for a, b in _SEG.findall(text)]


_PL = re.compile(
    r'Pipeline statistics \((\d+) instances\)\s*#+\s*'
    r'RX-frames: (\d+)\s+Pass: (\d+)\s+TX: (\d+)\s+Redirect: (\d+)\s+'
    r'Drop: (\d+)\s+Aborted: (\d+)\s+Held-in-GRO: (\d+)\s+Copies: (\d+)\s*'
    r'Verdict-packets:([^\n]*)\n\s*'
    r'GRO-in: (\d+)\s+GRO-out: (\d+)\s+Merge-ratio: ([\d.]+)')


def pipeline_stats(text):
    """Every 'show pipeline stats' block: list of dicts."""
    res = []
    for m in _PL.finditer(text):
        g = m.groups()
        d = {k: int(v) for k, v in zip(
            ('instances', 'rx', 'pass', 'tx', 'redirect', 'drop', 'aborted',
             'held', 'copies'), g[:9])}
        d['verdict_pkts'] = {k: int(v) for k, v in
                             (x.split('=') for x in g[9].split())}
        d['gro_in'], d['gro_out'] = int(g[10]), int(g[11])
        d['merge_ratio'] = float(g[12])
        res.append(d)
    return res


def mempool_in_use(text):
    m = re.search(r'mempool \S+: (\d+) of (\d+) mbufs in use after shutdown',
                  text)
    return None if m is None else int(m.group(1))


def port_macs(text):
    """{port: 'aa:bb:..'} from 'show port info' output."""
    res = {}
    for m in re.finditer(r'Infos for port (\d+)\s*\*+\s*MAC address: (\S+)',
                         text):
        res[int(m.group(1))] = m.group(2).lower()
    return res


def read_pcap(path):
    """Raw frames of a classic pcap (either byte order, us or ns), in order.
    Plain struct parsing: scapy is far too slow for txonly's output."""
    import struct
    if not os.path.exists(path):
        return []
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        return []
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xa1b2c3d4, 0xa1b23c4d):
        end = '<'
    elif magic in (0xd4c3b2a1, 0x4d3cb2a1):
        end = '>'
    else:
        raise ValueError('%s: not a pcap file' % path)
    frames, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack(end + 'I', data[off + 8:off + 12])[0]
        off += 16
        frames.append(data[off:off + incl])
        off += incl
    return frames


def write_pcap(path, frames):
    from scapy.all import wrpcap, Ether
    wrpcap(path, [Ether(f) for f in frames])


def stage_install(c, name):
    """meson install of the build into BUILD/NAME (emptied first); the
    staging directory, or exit with the failure reported through c."""
    import shutil
    build = build_root()
    stage = os.path.join(build, name)
    shutil.rmtree(stage, ignore_errors=True)
    r = subprocess.run(['meson', 'install', '-C', build, '--no-rebuild',
                        '--destdir', stage, '--quiet'], capture_output=True, text=True)
    c.eq('meson install exit status', r.returncode, 0)
    if r.returncode != 0:
        print(r.stderr)
        c.exit()
    return stage


class Checker:
    """Collects failures so one run reports all of them."""

    def __init__(self):
        self.failures = 0

    def eq(self, what, got, want):
        if got != want:
            print('FAIL: %s: got %r, want %r' % (what, got, want), flush=True)
            self.failures += 1
        else:
            print('ok: %s = %r' % (what, got), flush=True)

    def true(self, what, cond):
        if not cond:
            print('FAIL: %s' % what, flush=True)
            self.failures += 1
        else:
            print('ok: %s' % what, flush=True)

    def exit(self):
        print('%d failure(s)' % self.failures)
        sys.exit(1 if self.failures else 0)
