#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""meson install into a staging directory under the build dir, then build
apps/examples/vrouter.c with cc and nothing but
`pkg-config --cflags --libs libtagpipe`, and run it on pcaps/demo.pcap.
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


def relocate_pc(pc, stage, out_dir):
    """The staged libtagpipe.pc names the final prefix. Unless meson made it
    relocatable (prefix=${pcfiledir}/...), point a copy of it at the staging
    directory, as a packager's sysroot would."""
    text = open(pc).read()
    m = re.search(r'^prefix=(.*)$', text, re.M)
    if m and '${pcfiledir}' not in m.group(1):
        text = text.replace('prefix=' + m.group(1),
                            'prefix=' + stage + m.group(1), 1)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, 'libtagpipe.pc'), 'w') as f:
        f.write(text)
    return out_dir


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
    for h in ('tagpipe.h', 'tp_pipeline.h', 'tp_prog.h', 'tp_stats.h', 'tp_eal.h',
              'tp_vlan.h', 'tp_dsa_tag.h', 'tp_gro.h'):
        c.true('header tagpipe/%s installed' % h,
               any(p.endswith('/tagpipe/' + h) for p in staged(h)))
    c.true('static libtagpipe.a installed', len(staged('libtagpipe.a')) == 1)
    c.true('shared libtagpipe.so installed', len(staged('libtagpipe.so')) == 1)
    c.true('AQC plugin librte_net_aqc.so installed', len(staged('librte_net_aqc.so*')) >= 1)
    if len(pcs) != 1:
        c.exit()

    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = relocate_pc(pcs[0], stage, os.path.join(work, 'pkgconfig'))
    flags = run(['pkg-config', '--cflags', '--libs', 'libtagpipe'], env=env)
    c.eq('pkg-config libtagpipe exit status', flags.returncode, 0)
    exe = os.path.join(work, 'vrouter')
    example = os.path.join(src, 'apps', 'examples', 'vrouter.c')
    r = run(['cc', '-O2', '-Wall', '-Wextra', '-Werror', example, '-o', exe] +
            flags.stdout.split(), env=env)
    c.eq('example builds with cc + pkg-config', r.returncode, 0)
    if r.returncode != 0:
        c.exit()
    # Only the staged library may satisfy -ltagpipe at run time.
    libdir = os.path.dirname(staged('libtagpipe.so')[0])
    env['LD_LIBRARY_PATH'] = libdir
    ldd = run(['ldd', exe], env=env)
    c.true('vrouter uses the staged libtagpipe.so', libdir in ldd.stdout)

    # The static library too: the whole archive (taggers and programs
    # register from their own objects), found through pkg-config's libdir.
    static_lib = os.path.join(run(['pkg-config', '--variable=libdir', 'libtagpipe'],
                                  env=env).stdout.strip(), 'libtagpipe.a')
    exe_static = exe + '-static'
    r = run(['cc', '-O2', '-Wall', '-Wextra', '-Werror', example, '-o', exe_static] +
            run(['pkg-config', '--cflags', 'libtagpipe'], env=env).stdout.split() +
            ['-Wl,--whole-archive', static_lib, '-Wl,--no-whole-archive'] +
            run(['pkg-config', '--libs', 'libdpdk', 'libbpf', 'libelf'],
                env=env).stdout.split() +
            ['-pthread', '-lm', '-ldl'], env=env)
    c.eq('example links the static libtagpipe.a', r.returncode, 0)

    demo = os.path.join(src, 'pcaps', 'demo.pcap')
    frames = fwdlib.read_pcap(demo)
    ip = sum(1 for f in frames if Ether(f).type in (0x0800, 0x86dd))
    for name, binary in (('vrouter', exe), ('vrouter-static', exe_static)):
        if not os.path.exists(binary):
            continue
        eal = ['-l', '0', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
               '--file-prefix=tp_vrouter_%d' % os.getpid(),
               '--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % demo]
        r = run([binary] + eal + ['--', '300'], env=env, timeout=120)
        fwdlib.cleanup_runtime(eal)
        c.eq(name + ' exit status', r.returncode, 0)
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
    shutil.rmtree(work, ignore_errors=True)
    c.exit()


if __name__ == '__main__':
    main()
