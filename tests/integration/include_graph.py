#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include graph of lib/ keeps docs/DESIGN.md's table, "Libraries and
who may use whom":
  - a library includes only its own headers, the shared helpers at the top
    of lib/ (tp_logtype.h, ...) and the contract headers of the libraries
    it may use (DESIGN's table, in dependency order), never another
    library's private header;
  - the helpers at the top of lib/ include no library's private header;
  - so no two folders include each other (no cycle), which is checked too.
Run: /usr/bin/python3 tests/integration/include_graph.py [SOURCE_ROOT]
(meson test -C build include_graph). Prints every bad include as
FILE:LINE and exits 1."""
import os
import re
import sys

# lib/<name> -> the libraries it may use (docs/DESIGN.md).
MAY_USE = {
    'vlan': [],
    'dsa_tag': ['vlan'],
    'gro': ['dsa_tag'],
    'prog': ['vlan', 'dsa_tag', 'gro'],
    'pipeline': ['vlan', 'dsa_tag', 'gro', 'prog'],
    'bpf': ['vlan', 'dsa_tag', 'gro', 'prog', 'pipeline'],
}
# Each library's contract: the headers it installs (its meson.build).
CONTRACT = {
    'vlan': ['tp_vlan.h'],
    'dsa_tag': ['tp_dsa_tag.h', 'tp_dsa_meta.h'],
    'gro': ['tp_gro.h'],
    'prog': ['tp_prog.h'],
    'pipeline': ['tp_pipeline.h', 'tp_stats.h', 'tp_host_if.h'],
    'bpf': ['tp_bpf.h'],
}
# Headers a library shares with tagpipe's other libraries but not with
# users (not installed): inline fast paths another library fuses with.
CONTRACT['vlan'] += ['vlan_fast.h']   # the strip lib/dsa_tag fuses with
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        'TP_SOURCE_ROOT', os.path.join(os.path.dirname(__file__), '..', '..'))
    lib = os.path.join(top, 'lib')
    owner = {}        # header file name -> library folder ('' = lib/ top)
    for d in sorted(os.listdir(lib)):
        p = os.path.join(lib, d)
        if os.path.isdir(p):
            for f in os.listdir(p):
                if f.endswith('.h'):
                    owner[f] = d
        elif d.endswith('.h'):
            owner[d] = ''
    missing = sorted(set(MAY_USE) ^ {d for d in os.listdir(lib)
                                     if os.path.isdir(os.path.join(lib, d))})
    bad = ['lib/ folders not in the table (add them to DESIGN and here): %s' % missing] \
        if missing else []
    edges = set()
    checked = 0
    for d in [''] + sorted(MAY_USE):
        folder = os.path.join(lib, d)
        for f in sorted(os.listdir(folder)):
            if not f.endswith(('.c', '.h')):
                continue
            text = open(os.path.join(folder, f)).read()
            for m in INC.finditer(text):
                inc = os.path.basename(m.group(1))
                line = text.count('\n', 0, m.start()) + 1
                where = 'lib/%s%s:%d' % (d + '/' if d else '', f, line)
                checked += 1
                o = owner.get(inc)
                if o is None or o == d:
                    continue            # its own header, or not tagpipe's
                edges.add((d, o))
                if o == '':
                    continue            # a shared helper at the top of lib/
                if d == '':
                    if inc not in CONTRACT[o]:
                        bad.append('%s: includes lib/%s\'s private %s' % (where, o, inc))
                elif o not in MAY_USE[d]:
                    bad.append('%s: lib/%s may not use lib/%s (%s)' % (where, d, o, inc))
                elif inc not in CONTRACT[o]:
                    bad.append('%s: includes lib/%s\'s private header %s' % (where, o, inc))
    cycles = sorted('%s <-> %s' % (a or 'lib/', b or 'lib/') for a, b in edges
                    if a < b and (b, a) in edges)
    bad += ['folders include each other: %s' % c for c in cycles]
    print('include_graph: %d includes in %d folders checked' % (checked, len(MAY_USE) + 1))
    for b in bad:
        print('FAIL: ' + b)
    print('include_graph: %s' % ('ok' if not bad else '%d bad includes' % len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
