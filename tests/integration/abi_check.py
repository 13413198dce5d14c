#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The built libraries keep the ABI of the committed baselines (abi/*.abi,
written by scripts/abi-baseline.sh): abidiff (Debian package
abigail-tools) compares each installed library with its baseline, with
DPDK's rules (abi/libabigail.abignore: EXPERIMENTAL and INTERNAL symbols
may change; added symbols are compatible) and must report nothing.
Negative control, so the check is known to see changes: the baseline of
libtp_vlan compared with libtp_dsa_tag.so reports removed functions."""
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402

LIBS = ('libtp_vlan', 'libtp_dsa_tag', 'libtp_gro', 'libtp_prog', 'libtp_pipeline', 'libtp_bpf')
# abidiff's exit status is a bit field (abidiff(1)): 1 error, 2 usage
# error, 4 ABI change, 8 incompatible ABI change.
ABI_CHANGE, ABI_INCOMPATIBLE = 4, 8


def abidiff(src, baseline, so, inc):
    cmd = ['abidiff', '--no-added-syms', '--suppressions',
           os.path.join(src, 'abi', 'libabigail.abignore'),
           '--headers-dir2', inc, baseline, so]
    print('$', ' '.join(cmd), flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(r.stdout)
    print(r.stderr, file=sys.stderr)
    return r.returncode, r.stdout


def main():
    if shutil.which('abidiff') is None:
        print('SKIP: abidiff not installed (Debian package abigail-tools)')
        sys.exit(fwdlib.SKIP)
    c = fwdlib.Checker()
    src = fwdlib.source_root()
    stage = fwdlib.stage_install(c, 'abi-check-test')
    inc = glob.glob(os.path.join(stage, '**', 'include', 'tagpipe'), recursive=True)[0]

    def so(lib):
        found = glob.glob(os.path.join(stage, '**', lib + '.so'), recursive=True)
        c.eq(lib + '.so installed once', len(found), 1)
        return found[0] if found else None

    for lib in LIBS:
        baseline = os.path.join(src, 'abi', lib + '.abi')
        c.true('baseline abi/%s.abi committed' % lib, os.path.exists(baseline))
        path = so(lib)
        if path is None or not os.path.exists(baseline):
            continue
        rc, report = abidiff(src, baseline, path, inc)
        c.eq('%s: abidiff against abi/%s.abi (0 = same ABI)' % (lib, lib), rc, 0)

    path = so('libtp_dsa_tag')
    if path is not None:
        rc, report = abidiff(src, os.path.join(src, 'abi', 'libtp_vlan.abi'), path, inc)
        c.true('negative control: libtp_vlan baseline vs libtp_dsa_tag.so is an ABI '
               'change (exit %d)' % rc, rc & (ABI_CHANGE | ABI_INCOMPATIBLE) and
               not rc & 3)
        c.true('negative control: removed functions reported',
               'tp_vlan_strip_burst' in report)
    shutil.rmtree(stage, ignore_errors=True)
    c.exit()


if __name__ == '__main__':
    main()
