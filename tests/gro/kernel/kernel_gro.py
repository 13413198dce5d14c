#!/usr/bin/python3
"""The running Linux kernel's GRO as an oracle: pcap in, the kernel's GRO output
as a pcap out.

usage: kernel_gro.py [options] IN.pcap OUT.pcap [IN2.pcap OUT2.pcap ...]

Two network namespaces joined by one veth pair: the frames of IN.pcap are
written in order on the sending end with an AF_PACKET socket, and an AF_PACKET
socket on the receiving end reads what the receiving device's NAPI delivers
after GRO. A packet socket tap sits in __netif_receive_skb_core(), after
napi_gro_receive() (net/core/gro.c), so it sees every merged skb as one large
frame, whatever the addresses (the IP layer never has to accept the frames;
IPv6 is disabled on both ends so that neither stack sends anything of its own).

How the frames reach GRO in ONE NAPI poll (see README.md for the measurements):
veth only runs NAPI on the receiving end when GRO is on there
(drivers/net/veth.c, veth_gro_requested()) and only hands a frame to it when
the sending end does not do TSO (veth_skb_is_eligible_for_gro()); that is what
the kernel's own selftest sets (tools/testing/selftests/net/setup_veth.sh:
"ethtool -K gro on tso off"). Without more, each frame written is polled at
once (veth_xmit() raises NET_RX_SOFTIRQ, which runs when the sender's
local_bh_enable() returns), so nothing merges. The selftest keeps GRO held
across polls with gro_flush_timeout and napi_defer_hard_irqs, but
napi_complete_done() (net/core/dev.c) still flushes every held skb older than
the current jiffy, so the result depends on when the tick falls. Here the
receiving NAPI is threaded (/sys/class/net/DEV/threaded = 1, napi_threaded_poll()
in net/core/dev.c) and its kthread is pinned to the sender's CPU while the
sender runs SCHED_FIFO: the kthread cannot run until all frames sit in the veth
ring (VETH_RING_SIZE 256), then one poll with budget 64 (NAPI_POLL_WEIGHT)
takes them all and napi_complete_done() flushes everything at its end. The
default gro_flush_timeout 0 / napi_defer_hard_irqs 0 are kept so that
nothing survives the poll. A sequence must therefore hold at most 64 frames.

The receiver asks for a virtio_net_hdr in front of each frame
(PACKET_VNET_HDR, net/packet/af_packet.c): its gso_type/gso_size say whether
the frame is a GRO aggregate and of which segment size. The output pcap
carries the frames only; with --meta FILE a JSON line per frame records
gso_size and the number of segments.

Exit status: 0 done, 77 when the namespaces/veth cannot be created (not root,
no CAP_NET_ADMIN, no veth), 1 on any other failure (frames lost, output that
does not account for the input exactly, or runs that disagree with --repeat).
"""
import argparse
import ctypes
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gen"))
import tpgen  # noqa: E402

from scapy.all import Ether, TCP  # noqa: E402

SKIP = 77

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_AUXDATA = 8        # include/uapi/linux/if_packet.h
PACKET_VNET_HDR = 15
PACKET_OUTGOING = 4       # sll_pkttype of frames the device sends
TP_STATUS_VLAN_VALID = 1 << 4
TP_STATUS_VLAN_TPID_VALID = 1 << 6
VNET_HDR = struct.Struct("=BBHHHH")  # include/uapi/linux/virtio_net.h
VIRTIO_NET_HDR_GSO_NONE = 0
VIRTIO_NET_HDR_GSO_ECN = 0x80
CLONE_NEWNET = 0x40000000
NAPI_POLL_WEIGHT = 64     # include/linux/netdevice.h; veth polls with it
MAX_FRAMES = NAPI_POLL_WEIGHT

libc = ctypes.CDLL(None, use_errno=True)


def _exit_on_signal(signum, _frame):
    raise SystemExit(128 + signum)


class SetupError(Exception):
    """The namespaces or the veth pair could not be created (test SKIPs)."""


def sh(*cmd, check=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


def setns(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            e = ctypes.get_errno()
            raise OSError(e, "setns(%s): %s" % (path, os.strerror(e)))
    finally:
        os.close(fd)


def tcp_payload_len(frame):
    """TCP payload bytes of an Ethernet frame (scapy trims to the IP length)."""
    p = Ether(frame)
    t = p.getlayer(TCP)
    if t is None:
        return None
    return len(bytes(t.payload))


def segments_of(frame, gso_size):
    """Input frames one output frame stands for: a GRO aggregate holds
    segments of exactly gso_size bytes but the last, which has 1..gso_size
    (net/ipv4/tcp_offload.c, tcp_gro_receive())."""
    if not gso_size:
        return 1
    n = tcp_payload_len(frame)
    if n is None or n == 0:
        raise RuntimeError("GSO frame without TCP payload")
    return (n + gso_size - 1) // gso_size


def tag_of(dev):
    return dev[2:-1]


class KernelGro:
    """One namespace pair and veth, reused for many sequences."""

    def __init__(self, napi="threaded", flush_timeout_ns=0, defer_hard_irqs=0, cpu=None,
                 hold=True, vxlan_ports=(), udp_fwd=False, segments=None):
        tag = "%x" % os.getpid()
        self.ns_tx, self.ns_rx = "tpgro-%s-tx" % tag, "tpgro-%s-rx" % tag
        # "kg" + pid in hex + t/r: at most 9 characters, so that the NAPI
        # kthread's name "napi/DEV-ID" keeps "napi/DEV-" within TASK_COMM_LEN.
        self.dev_tx, self.dev_rx = "kg%st" % tag, "kg%sr" % tag
        self.napi = napi
        self.flush_timeout_ns = flush_timeout_ns
        self.defer_hard_irqs = defer_hard_irqs
        self.cpu = cpu if cpu is not None else min(os.sched_getaffinity(0))
        self.hold = hold  # pin the NAPI kthread behind a SCHED_FIFO sender
        self.tx = self.rx = None
        self.created = []
        self.napi_pid = None
        # Tunnel GRO needs a tunnel socket in the receiving namespace: one
        # collect-metadata ("external") VXLAN device per UDP port opens an
        # IPv4 and an IPv6 socket there (vxlan_sock_add(),
        # drivers/net/vxlan/vxlan_core.c), whose gro_receive is
        # vxlan_gro_receive. UDP GRO of other ports needs the device
        # feature rx-udp-gro-forwarding (NETIF_F_GRO_UDP_FWD, udp_gro_receive).
        self.vxlan_ports = tuple(vxlan_ports)
        self.udp_fwd = udp_fwd
        self.segments = segments or segments_of

    # -- setup / teardown -------------------------------------------------
    def __enter__(self):
        # meson and CI stop a test with SIGTERM: turn it into SystemExit so
        # that close() still deletes the namespaces.
        self._old_term = None
        if threading.current_thread() is threading.main_thread():
            self._old_term = signal.signal(signal.SIGTERM, _exit_on_signal)
        try:
            self._setup()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def _setup(self):
        for ns in (self.ns_tx, self.ns_rx):
            p = sh("ip", "netns", "add", ns, check=False)
            if p.returncode != 0:
                raise SetupError("ip netns add %s: %s" % (ns, p.stderr.strip()))
            self.created.append(ns)
            # No IPv6 on either end: no DAD/MLD/RS frames of the stacks' own.
            sh("ip", "netns", "exec", ns, "sysctl", "-q", "-w",
               "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        p = sh("ip", "link", "add", "name", self.dev_tx, "netns", self.ns_tx, "type", "veth",
               "peer", "name", self.dev_rx, "netns", self.ns_rx, check=False)
        if p.returncode != 0:
            raise SetupError("ip link add veth: %s" % p.stderr.strip())
        for ns, dev in ((self.ns_tx, self.dev_tx), (self.ns_rx, self.dev_rx)):
            sh("ip", "-n", ns, "link", "set", "dev", dev, "mtu", "65535")
            # Both ends as the selftest: GRO on, TSO off (the sender's TSO
            # off is what makes veth_xmit() hand frames to the peer's NAPI).
            sh("ip", "netns", "exec", ns, "ethtool", "-K", dev, "gro", "on", "tso", "off")
        self._write_sys(self.dev_rx, "gro_flush_timeout", self.flush_timeout_ns)
        self._write_sys(self.dev_rx, "napi_defer_hard_irqs", self.defer_hard_irqs)
        if self.udp_fwd:
            sh("ip", "netns", "exec", self.ns_rx, "ethtool", "-K", self.dev_rx,
               "rx-udp-gro-forwarding", "on")
        for i, port in enumerate(self.vxlan_ports):
            vx = "vgro%s%d" % (tag_of(self.dev_rx), i)
            p = sh("ip", "-n", self.ns_rx, "link", "add", vx, "type", "vxlan", "external",
                   "dstport", str(port), check=False)
            if p.returncode != 0:
                raise SetupError("vxlan device: %s" % p.stderr.strip())
            sh("ip", "-n", self.ns_rx, "link", "set", "dev", vx, "up")
        for ns, dev in ((self.ns_tx, self.dev_tx), (self.ns_rx, self.dev_rx)):
            sh("ip", "-n", ns, "link", "set", "dev", dev, "up")
        # veth creates its NAPI only when up with GRO on, so only now can it
        # be made threaded (the write fails with EIO before).
        self._write_sys(self.dev_rx, "threaded", 1 if self.napi == "threaded" else 0)
        if self.napi == "threaded" and self.hold:
            self.napi_pid = self._find_napi_thread()
            os.sched_setaffinity(self.napi_pid, {self.cpu})
        self.rx = self._packet_socket(self.ns_rx, self.dev_rx, rx=True)
        self.tx = self._packet_socket(self.ns_tx, self.dev_tx, rx=False)
        self._wait_carrier()
        self._drain()

    def _write_sys(self, dev, name, value):
        sh("ip", "netns", "exec", self.ns_rx, "sh", "-c",
           "echo %d > /sys/class/net/%s/%s" % (value, dev, name))

    def _find_napi_thread(self):
        """pid of the kthread "napi/DEV-ID" (net/core/dev.c, napi_kthread_create())."""
        want = "napi/%s-" % self.dev_rx
        for _ in range(100):
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open("/proc/%s/comm" % pid) as f:
                        if f.read().startswith(want):
                            return int(pid)
                except OSError:
                    continue
            time.sleep(0.02)
        raise RuntimeError("no NAPI kthread for %s (threaded NAPI unsupported?)" % self.dev_rx)

    def _packet_socket(self, ns, dev, rx):
        here = os.open("/proc/self/ns/net", os.O_RDONLY)
        try:
            setns("/run/netns/%s" % ns)
            try:
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
                if rx:
                    s.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
                    s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
                    s.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)  # SO_RCVBUFFORCE
                s.bind((dev, ETH_P_ALL))
            finally:
                if libc.setns(here, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), "setns back")
        finally:
            os.close(here)
        return s

    def _wait_carrier(self):
        for _ in range(250):
            p = sh("ip", "netns", "exec", self.ns_rx, "cat", "/sys/class/net/%s/carrier" % self.dev_rx,
                   check=False)
            if p.stdout.strip() == "1":
                return
            time.sleep(0.02)
        raise RuntimeError("%s: no carrier" % self.dev_rx)

    def _drain(self):
        while select.select([self.rx], [], [], 0.05)[0]:
            self.rx.recv(1 << 17)

    def close(self):
        for s in (self.tx, self.rx):
            if s is not None:
                s.close()
        self.tx = self.rx = None
        for ns in reversed(self.created):
            sh("ip", "netns", "del", ns, check=False)
        self.created = []
        if getattr(self, "_old_term", None) is not None:
            signal.signal(signal.SIGTERM, self._old_term)
            self._old_term = None

    # -- one sequence -----------------------------------------------------
    def _send_burst(self, frames):
        """All frames into the veth ring before the receiving NAPI can poll."""
        if self.napi != "threaded" or not self.hold:
            for f in frames:
                self.tx.send(f)
            return
        old_aff = os.sched_getaffinity(0)
        old_pol = os.sched_getscheduler(0)
        old_prm = os.sched_getparam(0)
        os.sched_setaffinity(0, {self.cpu})
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
            try:
                for f in frames:
                    self.tx.send(f)
            finally:
                # Back to SCHED_OTHER: only now can the NAPI kthread run.
                os.sched_setscheduler(0, old_pol, old_prm)
        finally:
            os.sched_setaffinity(0, old_aff)

    def _recv_one(self, timeout):
        if not select.select([self.rx], [], [], timeout)[0]:
            return None
        data, anc, flags, addr = self.rx.recvmsg(1 << 17, socket.CMSG_SPACE(64))
        if flags & socket.MSG_TRUNC:
            raise RuntimeError("receive buffer too small")
        if addr[2] == PACKET_OUTGOING:
            return "outgoing"
        hdr = VNET_HDR.unpack_from(data)
        frame = data[VNET_HDR.size:]
        for level, typ, cdata in anc:
            if level == SOL_PACKET and typ == PACKET_AUXDATA:
                # struct tpacket_auxdata: status len snaplen mac net vlan_tci vlan_tpid
                st, _, _, _, _, tci, tpid = struct.unpack_from("=IIIHHHH", cdata)
                if st & TP_STATUS_VLAN_VALID:
                    # The receive path moved the tag into skb->vlan_tci
                    # (skb_vlan_untag()); put it back where it was on the wire.
                    tpid = tpid if st & TP_STATUS_VLAN_TPID_VALID else 0x8100
                    frame = frame[:12] + struct.pack("!HH", tpid, tci) + frame[12:]
        gso_type = hdr[1] & ~VIRTIO_NET_HDR_GSO_ECN
        gso_size = hdr[3] if gso_type != VIRTIO_NET_HDR_GSO_NONE else 0
        return frame, gso_size

    def run(self, frames, timeout=5.0):
        """Frames in, [(frame, gso_size)] out, in delivery order."""
        if len(frames) > MAX_FRAMES:
            raise ValueError("%d frames: at most %d fit in one NAPI poll" % (len(frames), MAX_FRAMES))
        self._drain()
        self._send_burst(frames)
        out, accounted = [], 0
        deadline = time.monotonic() + timeout
        while accounted < len(frames):
            left = deadline - time.monotonic()
            r = self._recv_one(max(left, 0))
            if r is None:
                raise RuntimeError("kernel delivered %d of %d input frames within %.1f s"
                                   % (accounted, len(frames), timeout))
            if r == "outgoing":
                continue
            out.append(r)
            accounted += self.segments(*r)
        # Anything after the input is accounted for is not ours: fail loudly.
        r = self._recv_one(0.05)
        while r == "outgoing":
            r = self._recv_one(0.05)
        if r is not None or accounted != len(frames):
            raise RuntimeError("kernel output accounts for %d frames, input had %d%s"
                               % (accounted, len(frames), " (and more arrived)" if r else ""))
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", metavar="IN OUT")
    ap.add_argument("--napi", choices=["threaded", "softirq"], default="threaded",
                    help="receiving NAPI context (default threaded: one poll per burst)")
    ap.add_argument("--gro-flush-timeout", type=int, default=0, metavar="NS")
    ap.add_argument("--napi-defer-hard-irqs", type=int, default=0, metavar="N")
    ap.add_argument("--no-hold", action="store_true",
                    help="threaded NAPI, but no CPU pinning and no SCHED_FIFO sender (for measurements)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each input N times; fail unless all runs agree")
    ap.add_argument("--meta", metavar="FILE", help="JSON lines: input, frame, len, gso_size, segs")
    a = ap.parse_args()
    if len(a.files) % 2:
        ap.error("give IN OUT pairs")
    if a.repeat < 1:
        ap.error("--repeat %d: must be >= 1" % a.repeat)
    pairs = list(zip(a.files[0::2], a.files[1::2]))
    inputs = []
    for i, o in pairs:
        lt, frames = tpgen.read_pcap(i)
        if lt != tpgen.LINKTYPE_ETHERNET:
            sys.exit("%s: linktype %d, need Ethernet (1)" % (i, lt))
        if len(frames) > MAX_FRAMES:
            sys.exit("%s: %d frames, at most %d" % (i, len(frames), MAX_FRAMES))
        inputs.append(frames)
    meta = open(a.meta, "w") if a.meta else None
    try:
        with KernelGro(a.napi, a.gro_flush_timeout, a.napi_defer_hard_irqs, hold=not a.no_hold) as k:
            rc = 0
            for (i, o), frames in zip(pairs, inputs):
                first = k.run(frames)
                for n in range(1, a.repeat):
                    again = k.run(frames)
                    if again != first:
                        print("%s: run %d differs from run 1 (%d vs %d frames)"
                              % (i, n + 1, len(again), len(first)), file=sys.stderr)
                        rc = 1
                tpgen.write_pcap(o, [f for f, _ in first])
                if meta:
                    for j, (f, g) in enumerate(first):
                        meta.write(json.dumps({"input": i, "frame": j, "len": len(f),
                                               "gso_size": g, "segs": segments_of(f, g)}) + "\n")
            return rc
    except SetupError as e:
        print("SKIP: %s" % e, file=sys.stderr)
        return SKIP
    finally:
        if meta:
            meta.close()


if __name__ == "__main__":
    sys.exit(main())
