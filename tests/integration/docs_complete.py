#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The documentation a clone stands on stays complete and self-contained:
  - docs/counters.md explains every drop reason the headers define
    (lib/dsa_tag's with dsa_, lib/vlan's with vlan_, the pipeline's own);
  - drivers/atlantic_pmd/FEATURES.md lists every net_aqc_sim devarg the
    driver accepts;
  - every relative link in README.md and docs/**/*.md (docs/ref included)
    resolves inside the repository, and none of them names a shared/ tree
    outside it (section citations: tests/docs/check_citations.py);
  - the example rules file in docs/acl.md loads (tagpipe-replay
    --verdict acl:FILE runs on pcaps/demo.pcap)."""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402


def names(header, macro):
    text = open(header).read()
    body = re.search(r'#define %s\(X\)(.*?)\n\n' % macro, text, re.S).group(1)
    return re.findall(r'X\(\w+,\s*"([^"]+)"\)', body)


def main():
    c = fwdlib.Checker()
    src = fwdlib.source_root()
    counters = open(os.path.join(src, 'docs', 'counters.md')).read()
    reasons = (['dsa_' + n for n in names(os.path.join(src, 'lib/dsa_tag/tp_dsa_tag.h'),
                                          'TP_DSA_DROP_REASONS')] +
               ['vlan_' + n for n in names(os.path.join(src, 'lib/vlan/tp_vlan.h'),
                                           'TP_VLAN_DROP_REASONS')] +
               names(os.path.join(src, 'lib/pipeline/tp_stats.h'), 'TP_DROP_REASONS'))
    c.true('drop reasons found in the headers (%d)' % len(reasons), len(reasons) > 20)
    c.eq('drop reasons docs/counters.md does not explain',
         [r for r in reasons if '| `%s` |' % r not in counters], [])

    sim = open(os.path.join(src, 'drivers/atlantic_pmd/sim/aqc_sim_devargs.c')).read()
    keys = re.search(r'#define AQC_SIM_KEYS ((?:"[^"]*"\s*\\?\s*)+)', sim).group(1)
    keys = [k.strip() for k in ''.join(re.findall(r'"([^"]*)"', keys)).split(',')]
    features = open(os.path.join(src, 'drivers/atlantic_pmd/FEATURES.md')).read()
    c.true('net_aqc_sim devargs found (%d)' % len(keys), len(keys) > 8)
    c.eq('net_aqc_sim devargs FEATURES.md does not list',
         [k for k in keys if '`%s`' % k not in features], [])

    docs = [os.path.join(src, 'README.md')] + sorted(
        glob.glob(os.path.join(src, 'docs', '**', '*.md'), recursive=True))
    for doc in docs:
        text = open(doc).read()
        rel = os.path.relpath(doc, src)
        c.eq(rel + ': mentions of a shared/ tree outside the repository',
             re.findall(r'[\w./]*shared/[\w./]*', text), [])
        for link in re.findall(r'\]\(([^)#\s]+)[^)]*\)', text):
            if re.match(r'[a-z]+:', link):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(doc), link))
            c.true('%s: link %s resolves inside the repository' % (rel, link),
                   os.path.exists(target) and
                   os.path.commonpath([target, src]) == os.path.normpath(src))

    acl = open(os.path.join(src, 'docs', 'acl.md')).read()
    example = acl.split('## Example', 1)[1]
    rules = '\n'.join(ln[4:] for ln in example.splitlines() if ln.startswith('    '))
    c.true('docs/acl.md has an example', 'default pass' in rules)
    with tempfile.NamedTemporaryFile('w', suffix='.acl', delete=False) as f:
        f.write(rules + '\n')
    replay = os.path.join(fwdlib.build_root(), 'apps', 'replay', 'tagpipe-replay')
    r = subprocess.run([replay, '-i', os.path.join(src, 'pcaps', 'demo.pcap'),
                        '--verdict', 'acl:' + f.name, '-q'], capture_output=True, text=True,
                       timeout=120)
    os.unlink(f.name)
    c.eq('the docs/acl.md example loads and runs (exit status; %s)' % r.stderr.strip()[-200:],
         r.returncode, 0)
    c.exit()


if __name__ == '__main__':
    main()
