#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The installed shared libraries export their public API and nothing else.

meson install into a staging directory, then for each of
libtp_{vlan,dsa_tag,gro,prog,pipeline,bpf}.so:
  - `nm -D --defined-only`: every symbol is a name its version.map exports
    and is declared in an installed header; every name the map exports is
    defined (a map naming a hidden function would silently drop it from the
    ABI);
  - DPDK's version nodes: stable names in TAGPIPE_0.1, not yet stable ones
    in EXPERIMENTAL (declared __rte_experimental), tagpipe-internal ones in
    INTERNAL (declared __rte_internal); each symbol carries its node's
    version, headers and maps agree both ways, and a program calling such a
    function compiles only with ALLOW_EXPERIMENTAL_API / ALLOW_INTERNAL_API;
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

# installed name -> version map in the source tree: every library of lib/
LIBS = {'libtp_%s.so' % d: 'lib/%s/version.map' % d
        for d in ('vlan', 'dsa_tag', 'gro', 'prog', 'pipeline', 'bpf')}


def out(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print('$', ' '.join(cmd), '->', r.returncode, r.stderr, file=sys.stderr)
    return r.stdout


NODES = ('TAGPIPE_0.1', 'EXPERIMENTAL', 'INTERNAL')


def map_nodes(path):
    """{node: names} of a version map in DPDK's layout: the stable node
    TAGPIPE_0.1 { global: ...; local: *; }; then optional EXPERIMENTAL and
    INTERNAL nodes { global: ...; }; None if it does not parse so."""
    text = re.sub(r'/\*.*?\*/', '', open(path).read(), flags=re.S)
    nodes = {}
    for m in re.finditer(r'([\w.]+)\s*\{\s*global:(.*?)\}\s*;', text, re.S):
        body = m.group(2)
        if m.group(1) == 'TAGPIPE_0.1':
            if not re.search(r'local:\s*\*;\s*$', body):
                return None
            body = re.sub(r'local:\s*\*;\s*$', '', body)
        elif 'local:' in body:
            return None
        nodes[m.group(1)] = set(re.findall(r'(\w+)\s*;', body))
    if 'TAGPIPE_0.1' not in nodes or any(n not in NODES for n in nodes):
        return None
    return nodes


ATTRS = ('__rte_experimental', '__rte_internal')


def uncomment(text):
    return re.sub(r'//[^\n]*', '', re.sub(r'/\*.*?\*/', ' ', text, flags=re.S))


def marked(text, name):
    """The attribute macro (one of ATTRS, or '') in front of the first
    declaration of name in comment-free header text; None if not found."""
    m = re.search(r'\b%s\s*[(;\[]' % re.escape(name), text)
    if m is None:
        return None
    start = max(text.rfind(ch, 0, m.start()) for ch in ';{}')
    prefix = [ln for ln in text[start + 1:m.start()].splitlines()
              if not ln.strip().startswith('#')]
    return next((a for a in ATTRS if a in ' '.join(prefix)), '')


def main():
    c = fwdlib.Checker()
    src = fwdlib.source_root()
    stage = fwdlib.stage_install(c, 'abi-symbols-test')
    headers = glob.glob(os.path.join(stage, '**', 'include', 'tagpipe', '*.h'),
                        recursive=True)
    c.true('headers installed', len(headers) > 5)
    declared = set()
    htext = ''
    for h in headers:
        text = open(h).read()
        htext += text
        declared |= set(re.findall(r'\b(tp_\w+)\b', text))
    # Every function the headers mark experimental or internal, inline
    # ones included (those have no symbol).
    htext = uncomment(htext)
    marked_names = {}
    for m in re.finditer(r'(__rte_experimental|__rte_internal)([^;{]*?)\b(tp_\w+)\s*\(',
                         htext):
        marked_names[m.group(3)] = (m.group(1), 'inline' in m.group(2))
    in_nodes = {'EXPERIMENTAL': set(), 'INTERNAL': set()}

    for lib, mapfile in LIBS.items():
        found = glob.glob(os.path.join(stage, '**', lib), recursive=True)
        c.eq(lib + ' installed once', len(found), 1)
        if len(found) != 1:
            continue
        so = found[0]
        nodes = map_nodes(os.path.join(src, mapfile))
        c.true(mapfile + ' parses (TAGPIPE_0.1 { global: ...; local: *; }, '
               'then EXPERIMENTAL / INTERNAL { global: ...; })', nodes is not None)
        if nodes is None:
            continue
        exported = set().union(*nodes.values())
        c.eq(mapfile + ': names in more than one node',
             sorted(n for n in exported
                    if sum(n in v for v in nodes.values()) > 1), [])
        want_attr = {'EXPERIMENTAL': '__rte_experimental', 'INTERNAL': '__rte_internal'}
        for node in ('TAGPIPE_0.1', 'EXPERIMENTAL', 'INTERNAL'):
            for n in sorted(nodes.get(node, ())):
                c.eq('%s: %s (node %s) declared with' % (lib, n, node),
                     marked(htext, n), want_attr.get(node, ''))
            in_nodes.get(node, set()).update(nodes.get(node, ()))
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
        # nm -D prints NAME@@NODE for the default version of each symbol.
        vers = {}
        for line in out(['nm', '-D', '--defined-only', so]).splitlines():
            f = line.split()
            if len(f) == 3 and '@' in f[2] and f[1] != 'A':
                vers[f[2].split('@')[0]] = f[2].split('@')[-1]
        for node, names in nodes.items():
            wrong = sorted(n for n in names if n in vers and vers[n] != node)
            c.eq('%s: symbols of node %s versioned otherwise' % (lib, node), wrong, [])

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
    # A header's mark and the maps agree both ways (inline functions have
    # no symbol, so no map entry).
    attr_node = {'__rte_experimental': 'EXPERIMENTAL', '__rte_internal': 'INTERNAL'}
    for n, (attr, inline) in sorted(marked_names.items()):
        if not inline:
            c.true('%s: marked %s and listed in a %s node' % (n, attr, attr_node[attr]),
                   n in in_nodes[attr_node[attr]])
    c.true('some API is experimental', bool(in_nodes['EXPERIMENTAL']))
    c.true('some API is internal', bool(in_nodes['INTERNAL']))
    probe_compile(c, stage, in_nodes)
    shutil.rmtree(stage, ignore_errors=True)
    c.exit()


PROBE = {
    'EXPERIMENTAL': ('#include <tagpipe.h>\n'
                     'uint16_t f(struct tp_pipeline *pl, struct rte_mbuf **m)\n'
                     '{ return tp_pipeline_pass_tx(pl, 0, 0, m, 1); }\n',
                     'ALLOW_EXPERIMENTAL_API', 'not yet part of stable ABI'),
    'INTERNAL': ('#include <tagpipe.h>\n'
                 'int f(struct rte_mbuf *m) { return tp_xdp_edit_tail(m, 0); }\n',
                 'ALLOW_INTERNAL_API', 'not public ABI'),
}


def probe_compile(c, stage, in_nodes):
    """A program using an experimental (internal) function compiles only with
    ALLOW_EXPERIMENTAL_API (ALLOW_INTERNAL_API), as with DPDK's own."""
    inc = glob.glob(os.path.join(stage, '**', 'include', 'tagpipe'), recursive=True)
    dpdk = out(['pkg-config', '--cflags', 'libdpdk']).split()
    for node, (code, allow, msg) in PROBE.items():
        fn = re.search(r'(tp_\w+)\(', code.split('{')[1]).group(1)
        c.true('probe %s uses a %s function' % (fn, node), fn in in_nodes[node])
        path = os.path.join(stage, 'probe_%s.c' % node.lower())
        with open(path, 'w') as f:
            f.write(code)
        # _GNU_SOURCE: DPDK's headers need POSIX and GNU declarations.
        base = ['cc', '-std=c11', '-D_GNU_SOURCE', '-Wall', '-Werror', '-c', '-o', os.devnull,
                '-I' + inc[0]] + dpdk + [path]
        r = subprocess.run(base, capture_output=True, text=True)
        c.true('%s without -D%s: refused (%r)' % (fn, allow, r.stderr[-300:]),
               r.returncode != 0 and msg in r.stderr)
        r = subprocess.run(base[:1] + ['-D' + allow] + base[1:],
                           capture_output=True, text=True)
        c.eq('%s with -D%s: compiles (%s)' % (fn, allow, r.stderr[-300:]), r.returncode, 0)


if __name__ == '__main__':
    main()
