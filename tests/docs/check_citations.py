#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every section citation in the code points at a page and a section that
exist in this repository.

A citation is a section mark with a number, "§5.4", bound to the last
document named before it on the same line: a markdown path such as
docs/ref/aqc.md, or an outside document (RFC 9293, IEEE 802.1Q, SFF-8472),
which is not checked. With none on its line, a mark binds to the last
in-repo page named earlier in the file (so one path serves a comment that
lists several sections), and in a markdown page to the page itself. The
path is taken from the repository root, else from the citing file's
directory.

Errors, each reported as FILE:LINE: what is wrong:
  - the page does not exist, or has no heading numbered like the section
    ("## 3. ..." makes §3, "### 3.2 ..." makes §3.2);
  - a section mark with no document before it;
  - a section id with letters (§1b: pages number their sections);
  - the old bare forms that name no page: "doc §3", "doc 5.4", "doc 7";
  - a mention of a shared/docs tree outside the repository.

Scanned: lib/, drivers/, src/, apps/, tests/ (sources, scripts, build files,
markdown) and docs/ (markdown). Exit status 0 when all is well, 1 with the
list otherwise. --self-test runs the checker on a small tree of good and
bad citations and compares what it reports, line by line."""
import argparse
import os
import re
import sys
import tempfile

SCAN_DIRS = ('lib', 'drivers', 'src', 'apps', 'tests', 'docs')
TEXT_EXT = ('.c', '.h', '.py', '.sh', '.md', '.build', '.txt', '.in', '.map', '.json')
SELF = os.path.normpath('tests/docs/check_citations.py')

SECTION = re.compile(r'§\s?(\d+(?:\.\d+)*)([A-Za-z]?)')
# What a section mark can belong to: an in-repo markdown page, or an
# outside document whose sections are not ours to check.
DOC = re.compile(r'(?P<md>[\w./-]*\w\.md)\b|(?P<ext>\bRFC\s?\d+|\bIEEE\s[\w.]+|\bSFF-\d+)')
BARE = re.compile(r'\bdoc\s+§|\bdoc\s+\d+(?:\.\d+)*\b')
SHARED = re.compile(r'/work/shared|(?<![\w-])shared/(?:docs|pcaps)\b')
HEADING = re.compile(r'^#{1,6}\s+(?:§\s?)?(\d+(?:\.\d+)*)[.)]?\s')


def sections_of(path, cache):
    if path not in cache:
        ids = set()
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                m = HEADING.match(line)
                if m:
                    ids.add(m.group(1))
        cache[path] = ids
    return cache[path]


def resolve(root, citing, ref):
    for base in (root, os.path.dirname(citing)):
        p = os.path.normpath(os.path.join(base, ref))
        if os.path.isfile(p) and os.path.commonpath([p, root]) == root:
            return p
    return None


def check_file(root, path, cache, errors):
    """Check one file; returns the number of citations that resolved."""
    rel = os.path.relpath(path, root)
    is_md = path.endswith('.md')
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except (UnicodeDecodeError, OSError):
        return 0
    last = None   # the last in-repo page named in the file
    good = 0
    for no, line in enumerate(lines, 1):
        for m in BARE.finditer(line):
            errors.append('%s:%d: "%s" names no page: cite docs/ref/FILE §N'
                          % (rel, no, m.group(0)))
        for m in SHARED.finditer(line):
            errors.append('%s:%d: "%s" is outside the repository' % (rel, no, m.group(0)))
        # Walk the line's document names and section marks in order.
        events = [(m.start(), 'doc', m) for m in DOC.finditer(line)]
        events += [(m.start(), 'sec', m) for m in SECTION.finditer(line)]
        line_doc = None
        for _, kind, m in sorted(events, key=lambda e: e[0]):
            if kind == 'doc':
                d = ('md', m.group('md')) if m.group('md') else ('ext', m.group('ext'))
                line_doc = d
                if d[0] == 'md':
                    last = d
                continue
            sec, letters = m.group(1), m.group(2)
            if letters:
                errors.append('%s:%d: §%s%s: section ids are numbers' % (rel, no, sec, letters))
                continue
            doc = line_doc if is_md or line_doc is not None else last
            if doc is None:
                if is_md:
                    doc = ('md', os.path.basename(path))
                else:
                    errors.append('%s:%d: §%s names no document before it' % (rel, no, sec))
                    continue
            if doc[0] == 'ext':
                continue
            target = resolve(root, path, doc[1])
            if target is None:
                errors.append('%s:%d: §%s: no page %s in the repository' % (rel, no, sec, doc[1]))
            elif sec not in sections_of(target, cache):
                errors.append('%s:%d: %s has no section §%s' % (rel, no, doc[1], sec))
            else:
                good += 1
    return good


def check_tree(root):
    root = os.path.realpath(root)
    errors, cache, good, files = [], {}, 0, 0
    for top in SCAN_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.') and d != '__pycache__')
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                if rel == SELF or not name.endswith(TEXT_EXT) and name != 'meson.build':
                    continue
                if top == 'docs' and not name.endswith('.md'):
                    continue
                files += 1
                good += check_file(root, path, cache, errors)
    return errors, good, files


SELF_TEST_PAGE = """# A page
## 1. One
### 1.2 One two
## 10. Ten
Within the page: §1.2 and §10, then docs/ref/other.md §1 on this line only.
"""
SELF_TEST_SOURCE = """/* docs/ref/page.md §1.2 and §1, §10: good */
/* docs/ref/page.md §1.3: no such section */
/* then a bare §2 binds to page.md too: missing */
/* docs/ref/gone.md §1: no such page */
/* RFC 9293 §3.1 is not ours to check */
/* doc §3 and doc 5.4 and doc 7: old forms (that mark binds to line 4) */
/* §1b: letters; see shared/docs/x.md */
"""
SELF_TEST_EXPECTED = [
    'docs/ref/page.md:5: §1: no page docs/ref/other.md in the repository',
    'lib/x.c:2: docs/ref/page.md has no section §1.3',
    'lib/x.c:3: docs/ref/page.md has no section §2',
    'lib/x.c:4: §1: no page docs/ref/gone.md in the repository',
    'lib/x.c:6: "doc §" names no page: cite docs/ref/FILE §N',
    'lib/x.c:6: "doc 5.4" names no page: cite docs/ref/FILE §N',
    'lib/x.c:6: "doc 7" names no page: cite docs/ref/FILE §N',
    'lib/x.c:6: §3: no page docs/ref/gone.md in the repository',
    'lib/x.c:7: "shared/docs" is outside the repository',
    'lib/x.c:7: §1b: section ids are numbers',
    'src/y.c:1: §4 names no document before it',
]


def self_test():
    with tempfile.TemporaryDirectory() as d:
        for rel, text in (('docs/ref/page.md', SELF_TEST_PAGE), ('lib/x.c', SELF_TEST_SOURCE),
                          ('src/y.c', '/* §4 before any page */\n')):
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), 'w') as f:
                f.write(text)
        errors, good, _ = check_tree(d)
    ok = sorted(errors) == sorted(SELF_TEST_EXPECTED) and good == 5
    for e in sorted(set(errors) ^ set(SELF_TEST_EXPECTED)):
        print('self-test: %s %s' % ('unexpected' if e in errors else 'missing', e))
    print('self-test: %d errors as expected, %d good citations (want 5): %s'
          % (len(errors), good, 'ok' if ok else 'FAILED'))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.environ.get(
        'TP_SOURCE_ROOT', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')))
    ap.add_argument('--self-test', action='store_true')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    errors, good, files = check_tree(args.root)
    for e in errors:
        print(e)
    print('%d citations resolved in %d files; %d errors' % (good, files, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
