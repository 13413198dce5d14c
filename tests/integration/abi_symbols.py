#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The installed shared libraries export their public API and nothing else.

meson install into a staging directory, then for each of libtagpipe.so and
libtp_{vlan,dsa_tag,gro}.so:
  - `nm -D --defined-only`: every symbol is a name its version.map exports
    (node TAGPIPE_0.1) and is declared in an installed header; every name
    the map exports is defined (a map naming a hidden function would
    silently drop it from the ABI);
  - no call through the PLT to a function the library defines itself: its
    own helpers (GRO's per-aggregate ones included) are direct calls.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

LIBS = {  # installed name -> version map in the source tree
    'libtagpipe.so': 'src/version.map',
    'libtp_vlan.so': 'lib/vlan/version.map',
    'libtp_dsa_tag.so': 'lib/dsa_tag/version.map',
    'libtp_gro.so': 'lib/gro/version.map',
}


def out(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print('$', ' '.join(cmd), '->', r.returncode, r.stderr, file=sys.stderr)
    return r.stdout


def map_globals(path):
    text = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
    m = re.search(r'TAGPIPE_0\.1\s*\{\s*global:(.*?)local:\s*\*;\s*\};', text, re.S)
    return set(re.findall(r'(\w+)\s*;', m.group(1))) if m else None


def main():
    c = fwdlib.Checker()
    build, src = fwdlib.build_root(), fwdlib.source_root()
    stage = os.path.join(build, 'abi-symbols-test')
    shutil.rmtree(stage, ignore_errors=True)
    r = subprocess.run(['meson', 'install', '-C', build, '--no-rebuild',
                        '--destdir', stage, '--quiet'], capture_output=True, text=True)
    c.eq('meson install exit status', r.returncode, 0)
    if r.returncode != 0:
        print(r.stderr)
        c.exit()
    headers = glob.glob(os.path.join(stage, '**', 'include', 'tagpipe', '*.h'),
                        recursive=True)
    c.true('headers installed', len(headers) > 5)
    declared = set()
    for h in headers:
        declared |= set(re.findall(r'\b(tp_\w+)\b', open(h).read()))

    for lib, mapfile in LIBS.items():
        found = glob.glob(os.path.join(stage, '**', lib), recursive=True)
        c.eq(lib + ' installed once', len(found), 1)
        if len(found) != 1:
            continue
        so = found[0]
        exported = map_globals(os.path.join(src, mapfile))
        c.true(mapfile + ' parses (TAGPIPE_0.1 { global: ...; local: *; })',
               exported is not None)
        if exported is None:
            continue
        syms = {}
        for line in out(['nm', '-D', '--defined-only', so]).splitlines():
            f = line.split()
            if len(f) == 3 and f[1] != 'A':   # 'A': the version node itself
                syms[f[2].split('@')[0]] = f[1]
        private = sorted(s for s in syms if s not in exported)
        c.eq(lib + ': symbols not in its version map', private, [])
        undeclared = sorted(s for s in syms if s not in declared)
        c.eq(lib + ': exported symbols no installed header declares', undeclared, [])
        missing = sorted(exported - set(syms))
        c.eq(lib + ': version-map names it does not export', missing, [])
        c.true(lib + ': exports its API (%d symbols)' % len(syms), len(syms) > 5)
        ver = out(['objdump', '-T', so])
        c.true(lib + ': symbols carry version TAGPIPE_0.1', 'TAGPIPE_0.1' in ver)

        # Every symbol the library defines (hidden ones from the symbol
        # table, the build is not stripped) must never be a PLT call target.
        own = set()
        for line in out(['nm', '--defined-only', so]).splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'tT':
                own.add(f[2].split('@')[0])
        c.true(lib + ': has a symbol table to check against', len(own) > len(syms))
        plt = set(re.findall(r'call\s+\w+\s+<([\w.]+)@plt>',
                             out(['objdump', '-d', '--no-show-raw-insn', so])))
        c.eq(lib + ': own functions called through the PLT', sorted(plt & own), [])
    shutil.rmtree(stage, ignore_errors=True)
    c.exit()


if __name__ == '__main__':
    main()
