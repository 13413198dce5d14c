# SPDX-License-Identifier: BSD-3-Clause
"""Two tagpipe-fwd with host interfaces on one wire, made of network
namespaces and a veth pair, for tagpipe-fwd's --host-if.

tag_8021q switches (ocelot-8021q, sja1105, ...) tag a frame with an
802.1Q header whose VID names the switch port, the same VID in both
directions (linux net/dsa/tag_8021q.c: standalone VID = 0xC00 |
switch << 6 | port). So a frame one tagpipe-fwd sends "to switch port 1"
is, for a second tagpipe-fwd on the other end of the wire, a frame "from
switch port 1": the second one plays the switch and gives its ports to
namespace W as host interfaces too, where the kernel routes between them.

    root namespace                         namespace W ("the network")
    tagpipe-fwd H                          tagpipe-fwd S
     net_af_packet on thc ═════ veth ═════  net_af_packet on thw
     --host-if 0:1=lanA,0:2=lanB            --host-if 0:1=swA,0:2=swB
       │          │                          swA 192.0.2.254  swB 198.51.100.254
    namespace A  namespace B                  (routes between them)
    lanA 192.0.2.1   lanB 198.51.100.1   (+ 2001:db8:1::1, 2001:db8:2::1)

TCP from A to B: lanA hands H 64 KiB GSO packets; H segments them and
tags them for port 1; S merges the frames (GRO) and writes them to swA;
W routes them to swB as GSO packets; S segments and tags them for port 2;
H merges them and writes them to lanB. The veth has every offload off, so
the wire carries MTU-sized frames with complete checksums, each with its
tag, as a conduit does. Names contain "thost" and the process id;
addresses are from the documentation ranges (RFC 5737, RFC 3849)."""
import json
import os
import shutil
import subprocess
import time

TAGGER = 'ocelot-8021q'
TAG_LEN = 4
# (namespace address, W's address, prefix) per side; IPv4 then IPv6
SIDES = {
    1: (('192.0.2.1', '192.0.2.254', 24), ('2001:db8:1::1', '2001:db8:1::fe', 64)),
    2: (('198.51.100.1', '198.51.100.254', 24), ('2001:db8:2::1', '2001:db8:2::fe', 64)),
}


def sh(*cmd, check=True, **kw):
    r = subprocess.run(list(cmd), capture_output=True, text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(cmd), r.stderr.strip()))
    return r


def can_run():
    """None, or why the topology cannot be built here."""
    if os.geteuid() != 0:
        return 'not root'
    if not os.path.exists('/dev/net/tun'):
        return 'no /dev/net/tun'
    for tool in ('iperf3', 'ip', 'ethtool', 'sysctl'):
        if shutil.which(tool) is None:
            return tool + ' missing'
    probe = 'thostp%d' % (os.getpid() % 100000)
    r = sh('ip', 'netns', 'add', probe, check=False)
    if r.returncode != 0:
        return 'network namespaces not allowed: ' + r.stderr.strip()
    sh('ip', 'netns', 'del', probe, check=False)
    return None


def addresses_free():
    used = sh('ip', '-o', 'addr').stdout
    return all((' %s/' % a) not in used for s in SIDES.values() for fam in s
               for a in fam[:2])


def wait_listening(ns, port, timeout=15):
    """Until a TCP socket listens on port in namespace ns (a loaded
    machine may take more than a moment to start iperf3 -s)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = sh('ip', 'netns', 'exec', ns, 'ss', '-Hltn', 'sport = :%d' % port, check=False)
        if r.stdout.strip():
            return True
        time.sleep(0.1)
    return False


def offloads_off(dev, ns=None):
    pre = ['ip', 'netns', 'exec', ns] if ns else []
    sh(*pre, 'ethtool', '-K', dev, 'tso', 'off', 'gso', 'off', 'gro', 'off',
       'tx', 'off', 'rx', 'off', check=False)


class Topology:
    def __init__(self):
        t = '%d' % (os.getpid() % 100000)
        self.conduit = 'thostc' + t      # H's conduit, root namespace
        self.wire = 'thostw' + t         # S's conduit, namespace W
        self.ns_w = 'thostW' + t
        self.ns = {1: 'thostA' + t, 2: 'thostB' + t}
        self.lan = {1: 'thost1_' + t, 2: 'thost2_' + t}   # H's, moved to A, B
        self.sw = {1: 'thosts1_' + t, 2: 'thosts2_' + t}  # S's, stay in W
        self.made = []

    def host_if_option(self):
        return '0:1=%s,0:2=%s' % (self.lan[1], self.lan[2])

    def switch_if_option(self):
        return '0:1=%s,0:2=%s' % (self.sw[1], self.sw[2])

    def up(self):
        """Namespaces and the wire; the host interfaces come from the two
        tagpipe-fwd (attach_hosts, attach_switch)."""
        for ns in (self.ns_w, self.ns[1], self.ns[2]):
            sh('ip', 'netns', 'add', ns)
            self.made.append(('ns', ns))
        sh('ip', 'link', 'add', self.conduit, 'type', 'veth', 'peer', 'name',
           self.wire, 'netns', self.ns_w)
        self.made.append(('link', self.conduit))
        for dev, ns in ((self.conduit, None), (self.wire, self.ns_w)):
            pre = ['ip', 'netns', 'exec', ns] if ns else []
            offloads_off(dev, ns)
            # The wire carries only tagged frames: no address, no IPv6.
            sh(*pre, 'sysctl', '-qw', 'net.ipv6.conf.%s.disable_ipv6=1' % dev,
               check=False)
            sh(*pre, 'sysctl', '-qw', 'net.ipv4.conf.%s.arp_ignore=8' % dev, check=False)
            sh(*pre, 'ip', 'link', 'set', dev, 'up')
        for ns in self.ns.values():
            sh('ip', '-n', ns, 'link', 'set', 'lo', 'up')
        sh('ip', '-n', self.ns_w, 'link', 'set', 'lo', 'up')

    def _addr(self, ns, dev, p, which):
        n = ['ip', '-n', ns]
        (a4, w4, l4), (a6, w6, l6) = SIDES[p]
        sh(*n, 'addr', 'add', '%s/%d' % ((a4, w4)[which], l4), 'dev', dev)
        sh(*n, '-6', 'addr', 'add', '%s/%d' % ((a6, w6)[which], l6), 'dev', dev, 'nodad')
        sh(*n, 'link', 'set', dev, 'up')

    def attach_switch(self):
        """S's interfaces (made in W) get W's addresses; W routes."""
        for p in (1, 2):
            self._addr(self.ns_w, self.sw[p], p, 1)
        sh('ip', 'netns', 'exec', self.ns_w, 'sysctl', '-qw', 'net.ipv4.ip_forward=1')
        sh('ip', 'netns', 'exec', self.ns_w, 'sysctl', '-qw',
           'net.ipv6.conf.all.forwarding=1')

    def attach_hosts(self):
        """Move H's interfaces into A and B."""
        for p in (1, 2):
            ns, lan = self.ns[p], self.lan[p]
            sh('ip', 'link', 'set', lan, 'netns', ns)
            self._addr(ns, lan, p, 0)
            (a4, w4, l4), (a6, w6, l6) = SIDES[p]
            sh('ip', '-n', ns, 'route', 'add', 'default', 'via', w4)
            sh('ip', '-n', ns, '-6', 'route', 'add', 'default', 'via', w6)

    def link_stats(self, ns, dev):
        """The kernel's counters of dev in namespace ns."""
        r = sh('ip', '-n', ns, '-s', '-j', 'link', 'show', dev)
        j = json.loads(r.stdout)[0]
        return j['stats64'], j

    def down(self):
        for kind, name in reversed(self.made):
            if kind == 'ns':
                sh('ip', 'netns', 'del', name, check=False)
            else:
                sh('ip', 'link', 'del', name, check=False)
