#!/usr/bin/python3
"""Integration: the unmodified Debian dpdk-testpmd loads the net_aqc plugins
with -d and forwards a committed pcap in io mode over net_aqc_sim ports.

usage: testpmd_fwd.py PLUGIN SIM_PLUGIN INPUT_PCAP SCENARIO [MODEL]
  PLUGIN, SIM_PLUGIN: librte_net_aqc.so.* (net_aqc) and librte_net_aqc_sim.so.*
  (net_aqc_sim, which needs the first: DT_NEEDED by its SONAME). Both are
  given with -d, but in scenario auto only the sim plugin is, as a user
  would: the dynamic loader brings net_aqc along.
  MODEL aqc107 (A1, default) or aqc113 (A2): the chip every port models
  SCENARIO pcap2:  sim0 (rx_pcap=INPUT) -> io fwd -> sim1 (tx_pcap=OUT)
  SCENARIO chain4: sim0 (rx_pcap) -> fwd -> sim1 =peer cable= sim2 -> fwd ->
                   sim3 (tx_pcap)
  SCENARIO rss4:   as pcap2 with 4 RX/TX queues per port and RSS; frames of
                   one flow keep their order, so the output is compared as a
                   multiset (and per flow in order)
  SCENARIO auto:   as pcap2, run the way a user would: --auto-start, no
                   --disable-device-start, no --no-flush-rx, default devargs
                   (only a smaller mbuf pool, for the test's 256 MiB).
                   The pcap wire starts delivering only once the application
                   polls (rx_start=poll), after testpmd has made the port
                   promiscuous and flushed its queues.

Checks: every input frame comes out unchanged and in order; `show port info`
reports the driver and its real limits (docs/ref/aqc.md §7); `show port stats` counters
equal the frame and byte counts of the input. Bounded: testpmd is killed
after 60 s at most.
"""
import os
import re
import select
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time

TESTPMD = "/usr/bin/dpdk-testpmd"


def read_pcap(path):
    with open(path, "rb") as f:
        hdr = f.read(24)
        if len(hdr) < 24:
            raise SystemExit(f"{path}: truncated pcap header")
        end = "<" if struct.unpack("<I", hdr[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        frames = []
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                break
            _, _, caplen, _ = struct.unpack(end + "IIII", rec)
            frames.append(f.read(caplen))
        return frames


def flow_key(f):
    """What RSS hashes (docs/ref/aqc.md §6.1): IP addresses and TCP/UDP ports; frames
    without them all land on queue 0."""
    off = 12
    while f[off:off + 2] in (b"\x81\x00", b"\x88\xa8") and off < 20:
        off += 4   # VLAN / QinQ tags: the chip looks through up to two
    et, l3 = f[off:off + 2], off + 2
    if et == b"\x08\x00" and len(f) >= l3 + 20:
        ihl = (f[l3] & 15) * 4
        ports = f[l3 + ihl:l3 + ihl + 4] if f[l3 + 9] in (6, 17) else b""
        return f[l3 + 12:l3 + 20] + ports
    if et == b"\x86\xdd" and len(f) >= l3 + 40:
        return f[l3 + 8:l3 + 40] + (f[l3 + 40:l3 + 44] if f[l3 + 6] in (6, 17) else b"")
    return b"other"


def safe_dir():
    """A directory whose parents are not world-writable (DPDK refuses plugin
    paths otherwise): under the build dir when that is safe, else /run."""
    base = os.environ.get("TP_BUILD_ROOT", os.getcwd())
    p = os.path.abspath(base)
    ok = True
    while True:
        if os.stat(p).st_mode & stat.S_IWOTH:
            ok = False
            break
        if p == "/":
            break
        p = os.path.dirname(p)
    root = os.path.abspath(base) if ok else "/run"
    d = tempfile.mkdtemp(prefix="tagpipe-test-", dir=root)
    os.chmod(d, 0o755)
    return d


class Testpmd:
    def __init__(self, args):
        # testpmd prints with stdio: unbuffer it so each answer precedes its prompt
        # no LD_LIBRARY_PATH (meson test sets one to the build tree): the
        # plugins find each other as installed ones do
        env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
        self.p = subprocess.Popen(["stdbuf", "-o0", TESTPMD] + args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        self.deadline = time.monotonic() + 60
        self.log = []
        self.expect("testpmd> ")

    def expect(self, marker):
        buf = ""
        fd = self.p.stdout.fileno()
        while marker not in buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                self.p.kill()
                raise SystemExit("testpmd timed out; output so far:\n" + "".join(self.log) + buf)
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                self.p.wait()
                raise SystemExit("testpmd exited early:\n" + "".join(self.log) + buf)
            buf += chunk.decode(errors="replace")
        self.log.append(buf)
        return buf

    def cmd(self, line):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()
        return self.expect("testpmd> ")

    def quit(self):
        self.p.stdin.write(b"quit\n")
        self.p.stdin.flush()
        try:
            out, _ = self.p.communicate(timeout=max(1, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise SystemExit("testpmd did not quit")
        self.log.append(out.decode(errors="replace"))
        if self.p.returncode != 0:
            raise SystemExit(f"testpmd exit code {self.p.returncode}:\n" + "".join(self.log))


def port_stats(text, port):
    m = re.search(r"NIC statistics for port %d\s+#+\s*(.*?)#{10}" % port, text, re.S)
    if not m:
        raise SystemExit(f"no stats for port {port} in:\n{text}")
    s = m.group(1)
    get = lambda k: int(re.search(k + r":\s+(\d+)", s).group(1))
    return {"rx": get("RX-packets"), "rx_bytes": get("RX-bytes"), "missed": get("RX-missed"),
            "rx_err": get("RX-errors"), "tx": get("TX-packets"), "tx_bytes": get("TX-bytes")}


def main():
    plugin, sim_plugin, inp, scenario = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    model = sys.argv[5] if len(sys.argv) > 5 else "aqc107"
    if model not in ("aqc107", "aqc113"):
        raise SystemExit(f"unknown model {model}: expected aqc107 or aqc113")
    frames = read_pcap(inp)
    n, nbytes = len(frames), sum(len(f) for f in frames)
    work = safe_dir()
    failures = []
    try:
        # as installed: each under its SONAME, the sim plugin's RUNPATH
        # ($ORIGIN) finds net_aqc next to it
        for path in (plugin, sim_plugin):
            soname = re.search(r"\(SONAME\).*\[(.*)\]", subprocess.run(
                ["readelf", "-d", path], capture_output=True, text=True, check=True).stdout)
            shutil.copy(path, os.path.join(work, soname.group(1)))
        sonames = sorted(os.listdir(work))
        out = os.path.join(work, "out.pcap")
        queues = 1
        if scenario in ("pcap2", "rss4", "auto"):
            queues = 4 if scenario == "rss4" else 1
            vdevs = [f"net_aqc_sim0,wire=pcap,rx_pcap={inp}", f"net_aqc_sim1,wire=pcap,tx_pcap={out}"]
            rx_port, tx_port = 0, 1
        elif scenario == "chain4":
            vdevs = [f"net_aqc_sim0,wire=pcap,rx_pcap={inp}",
                     "net_aqc_sim1,wire=peer,peer=net_aqc_sim2", "net_aqc_sim2,wire=peer,peer=net_aqc_sim1",
                     f"net_aqc_sim3,wire=pcap,tx_pcap={out}"]
            rx_port, tx_port = 0, 3
        else:
            raise SystemExit(f"unknown scenario {scenario}")
        drv = [f for f in sonames if f.startswith("librte_net_aqc.so")]
        sim = [f for f in sonames if f.startswith("librte_net_aqc_sim.so")]
        loads = sim if scenario == "auto" else drv + sim
        args = [a for f in loads for a in ("-d", os.path.join(work, f))]
        args += ["--no-huge", "--no-shconf",
                "--no-pci", "-l", "0,1", "-m", "256", f"--file-prefix=tp_pmd_{os.getpid()}",
                "--log-level=pmd.net.aqc.*:notice"]
        for v in vdevs:
            args += ["--vdev", f"{v},model={model}"]
        # --max-pkt-len lets testpmd accept the jumbo frames (scatter on)
        # Ports start only once testpmd has made them promiscuous: the model's
        # rx_pcap feeds as soon as the link is up, and a real NIC would drop
        # frames for other MACs until then too. --no-flush-rx: frames that
        # arrived between port start and forwarding start are forwarded too.
        if scenario == "auto":
            # --total-num-mbufs only because the test's EAL has 256 MiB
            # (testpmd's default pool would need 340 MiB); nothing about timing
            args += ["--", "-i", "--forward-mode=io", "--auto-start", "--total-num-mbufs=8192"]
        else:
            args += ["--", "-i", "--disable-device-start", "--no-flush-rx", "--total-num-mbufs=8192",
                     "--forward-mode=io", "--enable-scatter", "--max-pkt-len=9600", "--rxd=512",
                     "--txd=512", f"--rxq={queues}", f"--txq={queues}"]
        t = Testpmd(args)
        if scenario != "auto":
            t.cmd("port start all")
        info = t.cmd("show port info 0")
        if scenario != "auto":
            t.cmd("start")
        stats = {}
        while True:
            text = t.cmd("show port stats all")
            stats = {p: port_stats(text, p) for p in (rx_port, tx_port)}
            if stats[tx_port]["tx"] >= n:
                break
            if time.monotonic() > t.deadline - 5:
                failures.append(f"only {stats[tx_port]['tx']} of {n} frames forwarded")
                break
            time.sleep(0.1)
        xstats = t.cmd("show port xstats 0")
        if scenario == "auto":
            # the ethdev operations a testpmd user reaches for (issue 12)
            for line in ["vlan set strip on 0", "vlan set strip off 0",
                         "set link-down port 1", "set link-up port 1",
                         "mac_addr add 0 02:00:00:00:00:77", "mac_addr remove 0 02:00:00:00:00:77",
                         "show port 0 flow_ctrl"]:
                answer = t.cmd(line).lower()
                for bad in ("diag", "fail", "not supported", "invalid", "bad arguments"):
                    if bad in answer:
                        failures.append(f"'{line}' answered: {answer.strip()}")
                        break
            if "model_rx_l2_filtered: 0" not in xstats:
                failures.append("show port xstats lacks model_rx_l2_filtered: 0")
        t.cmd("stop")
        t.cmd("port stop all")
        t.quit()
        # the model's firmware: A1 3.1.58 (0x0018), A2 bundle 1.3.34 (OUT)
        fw = "3.1.58" if model == "aqc107" else "1.3.34"
        for want in ["Driver name: net_aqc_sim", f"Firmware-version: {fw}",
                     "Link status: up", "Link speed: 10 Gbps",
                     "Max possible RX queues: 8", "Max possible TX queues: 8",
                     "Max possible number of RXDs per queue: 8184",
                     "Min possible number of RXDs per queue: 32", "RXDs number alignment: 8",
                     "Max possible number of TXDs per queue: 8184", "TXDs number alignment: 8",
                     "Minimum size of RX buffer: 1024",
                     "Maximum configurable length of RX packet: 16352",
                     "Hash key size in bytes: 40", "Redirection table size: 64",
                     "Max segment number per packet: 16"]:
            if want not in info:
                failures.append(f"show port info lacks '{want}'")
        r, x = stats[rx_port], stats[tx_port]
        for what, got, want in [("rx packets", r["rx"], n), ("rx bytes", r["rx_bytes"], nbytes),
                                ("rx missed", r["missed"], 0), ("rx errors", r["rx_err"], 0),
                                ("tx packets", x["tx"], n), ("tx bytes", x["tx_bytes"], nbytes)]:
            if got != want:
                failures.append(f"{what}: {got}, expected {want}")
        got = read_pcap(out)
        if len(got) != n:
            failures.append(f"output capture has {len(got)} frames, expected {n}")
        if queues == 1:
            for i, (a, b) in enumerate(zip(frames, got)):
                if a != b:
                    failures.append(f"frame {i} differs: in {len(a)} bytes, out {len(b)} bytes")
                    break
        elif sorted(frames) != sorted(got):
            failures.append("output frames are not the input frames")
        else:
            for key in set(flow_key(f) for f in frames):
                if [f for f in frames if flow_key(f) == key] != [f for f in got if flow_key(f) == key]:
                    failures.append(f"flow {key.hex()} out of order")
                    break
            per_q = [int(x) for x in re.findall(r"rx_q\d+_packets: (\d+)", xstats)]
            if len(per_q) != queues or sum(per_q) != n or sum(1 for x in per_q if x) < 2:
                failures.append(f"RSS did not spread the frames over the queues: {per_q}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"{scenario}: {n} frames ({nbytes} bytes) forwarded unchanged; limits and counters match")


if __name__ == "__main__":
    main()
