#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""meson install into a staging directory under the build dir, then build
apps/examples/vrouter.c with cc every supported way (shared and static,
umbrella pkg-config and per-library -l names) and run each on
pcaps/demo.pcap: one copy of each library (no multiple definitions, every
tagger and program kind registered once, each libtp_*.so needing the ones
it uses), and build
apps/examples/vrouter_mq.c the same way and run it on 2 lcores (RSS,
one pipeline each; conservation and per-flow order checked), and
apps/examples/macswap.c (rewrite + XDP_TX on net_pcap). The staged
.pc files are used as installed, through PKG_CONFIG_PATH alone (they are
relocatable: prefix=${pcfiledir}/...).
Expected counts come from reading the pcap here (IPv4/IPv6 frames pass,
the rest drop)."""
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402


def run(cmd, **kw):
    print('$', ' '.join(cmd), flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    print(r.stdout)
    print(r.stderr, file=sys.stderr)
    return r


# The libraries of lib/, most dependent first (the umbrella pkg-config
# name libtagpipe lists them all; there is no libtagpipe.so).
TP_LIBS = ('tp_bpf', 'tp_pipeline', 'tp_prog', 'tp_gro', 'tp_dsa_tag', 'tp_vlan')
TP_PCS = ('libtagpipe.pc', 'libtagpipe-libs.pc') + tuple('lib%s.pc' % x for x in TP_LIBS)


def shared_dpdk_pcs(env, out_dir):
    """Debian's static DPDK needs -lsystemd (libsystemd-dev, not a build
    dependency here): for the static modes, DPDK stays shared. Copies of
    libdpdk.pc / libdpdk-libs.pc without their private (static-only) lines
    make `pkg-config --static libtagpipe` give our archives and DPDK's .so."""
    os.makedirs(out_dir, exist_ok=True)
    for name in ('libdpdk', 'libdpdk-libs'):
        src = os.path.join(run(['pkg-config', '--variable=pcfiledir', name],
                               env=env).stdout.strip(), name + '.pc')
        lines = [ln for ln in open(src).read().splitlines()
                 if not ln.startswith(('Libs.private:', 'Requires.private:'))]
        with open(os.path.join(out_dir, name + '.pc'), 'w') as f:
            f.write('\n'.join(lines) + '\n')
    return out_dir


def mq_input(path):
    """8 UDP and 2 TCP flows, each frame's payload naming its flow and
    sequence number, then ICMP and ARP frames (the example drops them).
    Returns (frames, the frames that must come out)."""
    from scapy.all import ARP, ICMP, IP, TCP, UDP, Ether, Raw
    frames, out = [], []
    flows = [('udp', i) for i in range(8)] + [('tcp', i) for i in range(2)]
    for seq in range(40):
        for kind, i in flows:
            if kind == 'tcp' and seq >= 20:
                continue
            l3 = Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02') / \
                IP(src='10.0.0.%d' % (i + 1), dst='10.1.0.%d' % (i + 1))
            l4 = UDP(sport=1000 + i, dport=2000 + i) if kind == 'udp' else \
                TCP(sport=3000 + i, dport=4000 + i, flags='A', seq=1000 + seq * 100)
            f = bytes(l3 / l4 / Raw(b'%s%d:%04d' % (kind.encode(), i, seq) + b'x' * 60))
            frames.append(f)
            out.append(f)
    for j in range(10):
        frames.append(bytes(Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02') /
                            IP(src='10.9.0.1', dst='10.9.0.2') / ICMP(seq=j)))
    for j in range(5):
        frames.append(bytes(Ether(src='02:00:00:00:00:01', dst='ff:ff:ff:ff:ff:ff') /
                            ARP(psrc='10.0.0.1', pdst='10.0.0.%d' % (j + 2))))
    fwdlib.write_pcap(path, frames)
    return frames, out


def multi_lcore(c, src, work, env, cflags, libs, staged):
    """apps/examples/vrouter_mq.c from pkg-config alone, run with 2 lcores
    on net_aqc_sim (RSS over 2 RX queues): every TCP/UDP frame out exactly
    once and in order within its flow, ICMP/ARP dropped, both lcores busy,
    per-lcore counters that add up to the sum line, no mbuf left."""
    exe = os.path.join(work, 'vrouter-mq')
    r = run(['cc', '-O2', '-Wall', '-Wextra', '-Werror',
             os.path.join(src, 'apps', 'examples', 'vrouter_mq.c'), '-o', exe] + cflags + libs,
            env=env)
    c.eq('vrouter-mq builds from pkg-config', r.returncode, 0)
    # net_aqc_sim's plugin alone: it needs librte_net_aqc.so (DT_NEEDED),
    # which the loader finds next to it ($ORIGIN)
    plugin = [p for p in staged('librte_net_aqc_sim.so*') if not os.path.islink(p)]
    if r.returncode != 0 or not plugin:
        c.true('net_aqc_sim plugin staged', bool(plugin))
        return
    # DPDK loads no plugin below a world-writable directory (a build in
    # /tmp): the staged plugin directory, copied where it may, as installed
    pdir = fwdlib.plugin_dir('vrouter-mq-plugins')
    for f in os.listdir(os.path.dirname(plugin[0])):
        src_f = os.path.join(os.path.dirname(plugin[0]), f)
        if f.startswith('librte_net_aqc'):
            if os.path.islink(src_f):
                os.symlink(os.readlink(src_f), os.path.join(pdir, f))
            else:
                shutil.copy(src_f, pdir)
    plugin = [os.path.join(pdir, os.path.basename(plugin[0]))]
    pin, pout = os.path.join(work, 'mq_in.pcap'), os.path.join(work, 'mq_out.pcap')
    frames, want = mq_input(pin)
    eal = ['-d', plugin[0], '-l', '0-1', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
           '--file-prefix=tp_vrouter_mq_%d' % os.getpid(),
           '--vdev', 'net_aqc_sim0,wire=pcap,rx_pcap=' + pin,
           '--vdev', 'net_aqc_sim1,wire=pcap,tx_pcap=' + pout]
    r = run([exe] + eal + ['--', '0', '1', '300'], env=env, timeout=120)
    fwdlib.cleanup_runtime(eal)
    c.eq('vrouter-mq exit status (its own conservation checks)', r.returncode, 0)
    per = [tuple(map(int, m)) for m in re.findall(
        r'lcore (\d+) queue (\d+): rx (\d+) pass (\d+) drop (\d+) sent (\d+) unsent (\d+)',
        r.stdout)]
    c.eq('vrouter-mq: one line per lcore', len(per), 2)
    c.true('vrouter-mq: RSS gave both lcores frames %r' % [p[2] for p in per],
           len(per) == 2 and all(p[2] > 0 for p in per))
    for lc, q, rx, pas, drop, sent, unsent in per:
        c.eq('lcore %d: rx = pass + drop' % lc, rx, pas + drop)
        c.eq('lcore %d: pass = sent' % lc, pas, sent)
    m = re.search(r'all 2 lcores: rx (\d+) pass (\d+) drop (\d+) sent (\d+)', r.stdout)
    c.eq('vrouter-mq: the sum (rx, pass, drop, sent)', tuple(map(int, m.groups())) if m else None,
         (len(frames), len(want), len(frames) - len(want), len(want)))
    c.eq('vrouter-mq: sum = the lcores added up', tuple(map(int, m.groups())) if m else None,
         tuple(sum(p[i] for p in per) for i in (2, 3, 4, 5)))
    c.true('vrouter-mq: no mbuf left in use', 'mbufs in use 0' in r.stdout)
    got = fwdlib.read_pcap(pout) if os.path.exists(pout) else []
    c.true('vrouter-mq: every TCP/UDP frame out once (%d frames; bytes, any order '
           'across flows)' % len(got), sorted(got) == sorted(want))

    def flow_of(f):
        return f[14 + 12:14 + 20] + f[34:38]      # IP addresses, L4 ports
    for key in sorted(set(flow_of(f) for f in want)):
        mine = [f for f in want if flow_of(f) == key]
        c.true('vrouter-mq: flow %s: its %d frames in order' % (key.hex(), len(mine)),
               [f for f in got if flow_of(f) == key] == mine)


def reflector(c, src, work, env, cflags, libs):
    """apps/examples/macswap.c from pkg-config alone, on net_pcap with VID
    42: every frame with an Ethernet header comes back once, in order, its
    MACs swapped and an 802.1Q tag (VID 42) pushed; the runt is dropped.
    The expected frames are built here with scapy."""
    from scapy.all import ARP, IP, IPv6, UDP, Dot1Q, Ether, Raw, wrpcap
    exe = os.path.join(work, 'macswap')
    r = run(['cc', '-O2', '-Wall', '-Wextra', '-Werror',
             os.path.join(src, 'apps', 'examples', 'macswap.c'), '-o', exe] + cflags + libs,
            env=env)
    c.eq('macswap builds from pkg-config', r.returncode, 0)
    if r.returncode != 0:
        return
    a, b = '02:00:00:00:00:01', '02:00:00:00:00:02'
    frames = [Ether(src=a, dst=b) / IP(src='10.0.0.1', dst='10.0.0.2') /
              UDP(sport=1, dport=2) / Raw(b'x' * 30),
              Ether(src=a, dst=b) / IPv6() / UDP(sport=3, dport=4),
              Ether(src=a, dst='ff:ff:ff:ff:ff:ff') / ARP(psrc='10.0.0.1', pdst='10.0.0.3')]
    want = [bytes(Ether(src=f[Ether].dst, dst=f[Ether].src) /
                  Dot1Q(vlan=42, type=f[Ether].type) / f[Ether].payload) for f in frames]
    pin, pout = os.path.join(work, 'macswap_in.pcap'), os.path.join(work, 'macswap_out.pcap')
    # Raw, linktype Ethernet: the 10-byte runt is no Ether() scapy parses
    wrpcap(pin, [Raw(bytes(f)) for f in frames] + [Raw(bytes(range(10)))], linktype=1)
    eal = ['-l', '0', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
           '--file-prefix=tp_macswap_%d' % os.getpid(),
           '--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=%s' % (pin, pout)]
    r = run([exe] + eal + ['--', '42', '300'], env=env, timeout=120)
    fwdlib.cleanup_runtime(eal)
    c.eq('macswap exit status (no mbuf left in use)', r.returncode, 0)
    c.true('macswap: rx 4 tx 3 drop 1', 'macswap: rx 4 tx 3 drop 1 frames' in r.stdout)
    got = fwdlib.read_pcap(pout) if os.path.exists(pout) else []
    c.true('macswap: the 3 frames back, MACs swapped, VLAN 42 pushed, in order',
           got == want)


def main():
    from scapy.all import Ether
    c = fwdlib.Checker()
    build, src = fwdlib.build_root(), fwdlib.source_root()
    work = os.path.join(build, 'install-example-test')
    stage = os.path.join(work, 'stage')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    r = run(['meson', 'install', '-C', build, '--no-rebuild', '--destdir', stage,
             '--quiet'])
    c.eq('meson install exit status', r.returncode, 0)
    if r.returncode != 0:
        c.exit()

    def staged(pattern):
        return sorted(glob.glob(os.path.join(stage, '**', pattern), recursive=True))

    pcs = staged('libtagpipe.pc')
    c.eq('one libtagpipe.pc installed', len(pcs), 1)
    for name in TP_PCS:
        c.eq(name + ' installed', len(staged(name)), 1)
    for h in ('tagpipe.h', 'tp_config.h', 'tp_pipeline.h', 'tp_prog.h', 'tp_stats.h',
              'tp_bpf.h', 'tp_vlan.h', 'tp_dsa_tag.h', 'tp_dsa_meta.h', 'tp_gro.h'):
        c.true('header tagpipe/%s installed' % h,
               any(p.endswith('/tagpipe/' + h) for p in staged(h)))
    for lib in TP_LIBS:
        c.eq('static lib%s.a installed' % lib, len(staged('lib%s.a' % lib)), 1)
        c.eq('shared lib%s.so installed' % lib, len(staged('lib%s.so' % lib)), 1)
    c.true('AQC plugin librte_net_aqc.so installed', len(staged('librte_net_aqc.so*')) >= 1)
    c.true('AQC sim plugin librte_net_aqc_sim.so installed',
           len(staged('librte_net_aqc_sim.so*')) >= 1)
    for a in ('librte_net_aqc.a', 'librte_net_aqc_sim.a'):
        c.eq('static ' + a + ' installed', len(staged(a)), 1)
    pmds = sorted(os.path.dirname(p) for p in staged('librte_net_aqc*.so*'))
    c.true('both plugins in one plugin directory %s' % sorted(set(pmds)), len(set(pmds)) == 1)
    if len(pcs) != 1 or c.failures:
        c.exit()
    libdir = os.path.dirname(staged('libtp_pipeline.so')[0])

    # One copy of each library: each libtp_*.so needs the ones it uses (and
    # defines none of their symbols); each archive holds only its own.
    uses = {'tp_pipeline': ('tp_prog', 'tp_gro', 'tp_dsa_tag', 'tp_vlan'),
            'tp_bpf': ('tp_prog',), 'tp_prog': ('tp_dsa_tag',)}
    for lib, used in uses.items():
        so = staged('lib%s.so' % lib)[0]
        needed = run(['readelf', '-d', so]).stdout
        nm_so = run(['nm', '-D', '--defined-only', so]).stdout
        nm_a = run(['nm', '--defined-only', os.path.join(libdir, 'lib%s.a' % lib)]).stdout
        for u in used:
            c.true('lib%s.so NEEDED lib%s.so' % (lib, u),
                   re.search(r'NEEDED.*\[lib%s\.so\.' % u, needed) is not None)
        for other in TP_LIBS:
            if other == lib:
                continue
            prefix = {'tp_prog': 'tp_prog_(?!bpf)', 'tp_bpf': 'tp_prog_bpf'}.get(
                other, other + '_')
            c.eq('lib%s.so defines no %s* symbol' % (lib, prefix),
                 re.findall(r' [TDRB] (%s\w+)' % prefix, nm_so), [])
            c.eq('lib%s.a defines no %s* symbol' % (lib, prefix),
                 re.findall(r' [TDRB] (%s\w+)' % prefix, nm_a), [])

    env = dict(os.environ)
    # Man pages: installed, found by man(1) in the staged tree, and naming
    # every option the program's --help lists.
    for prog in ('tagpipe-replay', 'tagpipe-fwd'):
        pages = staged(prog + '.1')
        c.eq('man page %s.1 installed once' % prog, len(pages), 1)
        if len(pages) != 1:
            continue
        manpath = os.path.dirname(os.path.dirname(pages[0]))
        r = run(['man', '--manpath=' + manpath, prog], env=dict(os.environ, MANWIDTH='100',
                                                                 MANPAGER='cat', PAGER='cat'))
        c.eq('man %s: exit status' % prog, r.returncode, 0)
        c.true('man %s: NAME line' % prog, re.search(r'^\s+%s - ' % prog, r.stdout, re.M))
        binary = os.path.join(build, 'apps', prog.split('-')[1], prog)
        helptext = run([binary, '--help']).stdout if prog == 'tagpipe-replay' else \
            run([binary, '--no-huge', '--no-pci', '-m', '64', '--no-shconf',
                 '--file-prefix=tpman_%d' % os.getpid(), '--', '--help']).stdout
        fwdlib.cleanup_runtime(['--file-prefix=tpman_%d' % os.getpid()])
        page = open(pages[0]).read().replace('\\-', '-')
        opts = sorted(set(re.findall(r'(--[a-z][a-z-]+)', helptext)))
        c.true('%s --help lists options (%d)' % (prog, len(opts)), len(opts) > 10)
        c.eq('%s: --help options the man page lacks' % prog,
             [o for o in opts if o not in page], [])
    # Relocatable .pc files: the staged ones work with PKG_CONFIG_PATH alone.
    pc_path = os.path.dirname(pcs[0])
    for name in TP_PCS:
        text = open(os.path.join(pc_path, name)).read()
        c.true(name + ': prefix relative to ${pcfiledir}',
               re.search(r'^prefix=\$\{pcfiledir\}/', text, re.M) is not None)
    env['PKG_CONFIG_PATH'] = pc_path
    senv = dict(env)
    senv['PKG_CONFIG_PATH'] = pc_path + ':' + shared_dpdk_pcs(env, os.path.join(work, 'dpdkpc'))

    def pkg(e, *args):
        r = run(['pkg-config'] + list(args), env=e)
        c.eq('pkg-config %s exit status' % ' '.join(args), r.returncode, 0)
        return r.stdout.split()

    cflags = pkg(env, '--cflags', 'libtagpipe')
    whole = lambda libs: (['-Wl,--whole-archive'] +   # noqa: E731
                          [os.path.join(libdir, 'lib%s.a' % x) for x in libs] +
                          ['-Wl,--no-whole-archive'])
    # name -> link arguments after the source file
    modes = [
        ('shared, umbrella (pkg-config --libs libtagpipe)',
         'vrouter', pkg(env, '--libs', 'libtagpipe')),
        ('shared, per library (-ltp_dsa_tag -ltp_pipeline ...)',
         'vrouter-perlib',
         ['-L' + libdir, '-ltp_dsa_tag', '-ltp_pipeline', '-ltp_bpf',
          '-ltp_prog',
          '-ltp_gro', '-ltp_vlan'] + pkg(env, '--libs', 'libdpdk')),
        ('static, umbrella (pkg-config --static --libs libtagpipe)',
         'vrouter-static', pkg(senv, '--static', '--libs', 'libtagpipe')),
        ('static, per library (each archive named once, whole)',
         'vrouter-static-perlib',
         whole(['tp_dsa_tag', 'tp_pipeline', 'tp_bpf', 'tp_prog', 'tp_gro', 'tp_vlan']) +
         pkg(senv, '--libs', 'libdpdk', 'libbpf', 'libelf') + ['-pthread', '-lm', '-ldl']),
    ]
    example = os.path.join(src, 'apps', 'examples', 'vrouter.c')
    env['LD_LIBRARY_PATH'] = libdir      # only the staged libraries at run time
    built = []
    for what, name, libs in modes:
        exe = os.path.join(work, name)
        r = run(['cc', '-O2', '-Wall', '-Wextra', '-Werror', example, '-o', exe] +
                cflags + libs, env=env)
        c.eq(what + ': builds', r.returncode, 0)
        c.true(what + ': no multiple definition', 'multiple definition' not in r.stderr)
        if r.returncode != 0:
            continue
        ldd = run(['ldd', exe], env=env).stdout
        for lib in TP_LIBS:
            n = len(re.findall(r'^\s*lib%s\.so\S* =>' % lib, ldd, re.M))
            c.eq('%s: lib%s.so loaded' % (what, lib), n, 0 if 'static' in name else 1)
            if n:
                c.true('%s: lib%s.so is the staged one' % (what, lib),
                       os.path.join(libdir, 'lib%s.so' % lib) in ldd)
        built.append((what, exe))

    demo = os.path.join(src, 'pcaps', 'demo.pcap')
    frames = fwdlib.read_pcap(demo)
    ip = sum(1 for f in frames if Ether(f).type in (0x0800, 0x86dd))
    for name, binary in built:
        eal = ['-l', '0', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
               '--file-prefix=tp_vrouter_%d' % os.getpid(),
               '--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo]
        r = run([binary] + eal + ['--', '300'], env=env, timeout=120)
        fwdlib.cleanup_runtime(eal)
        c.eq(name + ' exit status', r.returncode, 0)
        # A second copy of lib/dsa_tag would register every tagger twice.
        c.eq(name + ': each tagger registered once',
             re.findall(r'cannot register tagger.*', r.stdout + r.stderr), [])
        m = re.search(r'rx (\d+) frames, pass (\d+) packets \((\d+) frames\), '
                      r'drop (\d+) frames', r.stdout)
        c.true(name + ' printed its counters', m is not None)
        if m:
            rx, pkts, pframes, drop = map(int, m.groups())
            c.eq(name + ' frames in', rx, len(frames))
            c.eq(name + ' IP frames passed', pframes, ip)
            c.eq(name + ' non-IP frames dropped', drop, len(frames) - ip)
            c.true(name + ' got merged packets (%d packets for %d frames)' % (pkts, pframes),
                   0 < pkts < pframes)
        c.true(name + ': no mbuf left in use', 'mbufs in use 0' in r.stdout)
    c.eq('every link mode built', len(built), len(modes))
    multi_lcore(c, src, work, env, cflags, pkg(env, '--libs', 'libtagpipe'), staged)
    reflector(c, src, work, env, cflags, pkg(env, '--libs', 'libtagpipe'))
    if not c.failures:
        shutil.rmtree(work, ignore_errors=True)
    c.exit()


if __name__ == '__main__':
    main()
