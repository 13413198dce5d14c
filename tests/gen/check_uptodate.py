#!/usr/bin/python3
"""Regenerate committed captures into a temp dir and compare byte for byte.

usage: check_uptodate.py SCRIPT COMMITTED_DIR
SCRIPT is run as `SCRIPT TMPDIR`; every file it writes must equal the file of
the same relative path under COMMITTED_DIR, and no committed file may be
missing from its output.
"""
import filecmp
import os
import subprocess
import sys
import tempfile


def files_under(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def main():
    script, committed = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["/usr/bin/python3", script, tmp], check=True)
        made = files_under(tmp)
        if not made:
            sys.exit(f"{script} wrote nothing")
        bad = []
        for rel in sorted(made):
            ref = os.path.join(committed, rel)
            if not os.path.exists(ref):
                bad.append(f"{rel}: generated but not committed")
            elif not filecmp.cmp(os.path.join(tmp, rel), ref, shallow=False):
                bad.append(f"{rel}: differs from the committed file")
        if bad:
            sys.exit("\n".join(bad) + f"\nrerun: {script} {committed}")
        print(f"{len(made)} files up to date")


if __name__ == "__main__":
    main()
