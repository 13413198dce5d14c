#!/usr/bin/python3
"""tagpipe-replay and tagpipe-fwd spell a shared concept the same way: the
same redirect entry and GRO syntax, the same valid values and ranges, and
word for word the same error after the option name (issue 14). The first
spellings of tagpipe-fwd (KEY:PORT[:SWITCH_PORT], --gro on, --gro-age USEC)
still work, with a note that gives the new one.
"""
import os
import re
import subprocess
import sys

import fwdlib

SRC = fwdlib.source_root()
DEMO = os.path.join(SRC, 'pcaps', 'demo.pcap')
REPLAY = os.path.join(fwdlib.build_root(), 'apps', 'replay', 'tagpipe-replay')
PREFIX = re.compile(r'^tagpipe-(replay|fwd): error: ')


def replay(args):
    p = subprocess.run([REPLAY, '-i', DEMO, '--gro', 'off'] + args, capture_output=True,
                       text=True, timeout=60)
    return p.returncode, [l for l in p.stderr.splitlines() if 'tagpipe-replay:' in l]


def fwd(args, i, ports=False):
    vdevs = ['net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % DEMO,
             'net_pcap1,rx_pcap=%s,tx_pcap=/dev/null' % DEMO] if ports else []
    eal = fwdlib.eal_args('tpcli%d' % i, vdevs)
    p = subprocess.run([fwdlib.fwd_binary()] + eal + ['--'] + args, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    fwdlib.cleanup_runtime(eal)
    return p.returncode, [l for l in p.stderr.splitlines() if 'tagpipe-fwd:' in l]


def error_text(lines):
    """The one error line without program name and fwd's ' (see --help)'."""
    errs = [PREFIX.sub('', l) for l in lines if PREFIX.match(l)]
    return errs[0].replace(' (see --help)', '') if len(errs) == 1 else errs


def main():
    c = fwdlib.Checker()
    same = [
        (['--gro', 'sometimes'], ['--gro', 'sometimes'],
         "--gro: bad value 'sometimes' (expected off, burst or age:USEC with USEC "
         "1..1000000; on is burst)"),
        (['--gro', 'age:0'], ['--gro', 'age:0'],
         "--gro: bad value 'age:0' (expected off, burst or age:USEC with USEC "
         "1..1000000; on is burst)"),
        (['--redirect', '7=port:1,bogus:3'], ['--redirect', '7=port:1,bogus:3'],
         None),
        (['--redirect', '70000=port:0'], ['--redirect', '70000=port:0'], None),
        (['--redirect', '7=queue:1'], ['--redirect', '7=queue:1'], None),
        (['--redirect', '7=port:0,switch_port:256'], ['--redirect', '7=port:0,switch_port:256'],
         None),
    ]
    for i, (ra, fa, want) in enumerate(same):
        rrc, rl = replay(ra)
        frc, fl = fwd(fa, i)
        what = ' '.join(ra)
        c.eq(what + ': both exit 2', (rrc, frc), (2, 2))
        re_, fe = error_text(rl), error_text(fl)
        c.eq(what + ': the same error text', fe, re_)
        if want is not None:
            c.eq(what + ': the error', re_, want)
        c.true(what + ': the error names the value (%s)' % re_, ra[1] in str(re_) or
               ra[1].split(',')[-1] in str(re_) or ra[1].split('=')[1] in str(re_))
    # An unknown tagger lists the valid names in both.
    rrc, rl = replay(['--tagger', 'nosuchtag'])
    frc, fl = fwd(['--port-tagger', '1:nosuchtag'], 90, ports=True)
    rt, ft = error_text(rl), error_text(fl)
    c.eq('unknown tagger: exit 2 in both', (rrc, frc), (2, 2))
    m = re.search(r"unknown tagger 'nosuchtag' \(valid: (.*)\)$", str(rt))
    c.true('replay lists the taggers: %s' % rt, m is not None and 'edsa' in m.group(1))
    c.eq('fwd gives the same list', ft,
         '--port-tagger 1:nosuchtag: ' + rt.replace('--tagger: ', '') if m else None)
    # tagpipe-fwd's first spellings: accepted, with a note giving the new one.
    rc, fl = fwd(['--redirect', '1:9'], 91, ports=True)
    c.eq('old --redirect 1:9: note, then the port check', fl[:1],
         ['tagpipe-fwd: note: --redirect 1:9: old spelling, write 1=port:9'])
    rc, fl = fwd(['--redirect', '1=port:9'], 92, ports=True)
    c.eq('new --redirect 1=port:9: the port check names port 9', error_text(fl),
         '--redirect: no such port 9 (there are 2)')
    rc, fl = fwd(['--gro-age', '2000', '--forward-mode', 'nosuch'], 93)
    c.eq('old --gro-age 2000: note', fl[:1],
         ['tagpipe-fwd: note: --gro-age 2000: old spelling, write --gro age:2000'])
    rc, rl = replay(['--redirect', '3:0:5', '--stats', '/dev/null'])
    c.eq('replay takes the old redirect form too (exit 0)', rc, 0)
    c.eq('replay: note for the old form', rl[:1],
         ['tagpipe-replay: note: --redirect 3:0:5: old spelling, write '
          '3=port:0,switch_port:5'])
    # --version: one line, the project's version (meson.build) and DPDK's
    # (pkg-config), exit 0, nothing on stderr; before the EAL starts.
    ver = re.search(r"version: '([^']+)'", open(os.path.join(SRC, 'meson.build')).read()).group(1)
    dpdk = subprocess.run(['pkg-config', '--modversion', 'libdpdk'], capture_output=True,
                          text=True).stdout.strip()
    for name, binary in (('tagpipe-replay', REPLAY), ('tagpipe-fwd', fwdlib.fwd_binary())):
        p = subprocess.run([binary, '--version'], capture_output=True, text=True, timeout=60)
        c.eq(name + ' --version: exit status', p.returncode, 0)
        c.eq(name + ' --version: stdout', p.stdout, '%s %s (DPDK %s)\n' % (name, ver, dpdk))
        c.eq(name + ' --version: stderr', p.stderr, '')
    c.exit()


if __name__ == '__main__':
    main()
