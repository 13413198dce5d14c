#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Issue 26, item 4: one tagpipe-fwd run that drops frames three ways, and
every counter surface gives the same numbers.

Input (made here with scapy): pcaps/pipeline/acl_input.pcap REPEAT times
(its rules, acl_rules.txt, drop 6 of its 12 frames: the committed
acl_expected_drop.pcap says which) and BAD 802.1Q frames cut inside the tag
(the VLAN stage's drop "vlan_too_short"). Port 0 (net_pcap) receives it,
pipeline mode forwards PASS frames to port 1, a net_aqc_sim port in
mode=step whose TX engine never runs, so its TX ring fills and refuses the
rest (drop reason tx_full). GRO off, so frames are packets.

Expected from the files alone: verdict_drop = REPEAT x 6, vlan_too_short =
BAD, tx_full = PASS frames - what port 1's TX ring took; and then:
  - show pipeline stats: Drop and Drop-reasons as above, cycles/mbuf > 0
    for every stage that ran (--record-stage-cycles);
  - forward statistics: RX = every frame, TX = what the ring took,
    TX-dropped = every drop, RX = TX + TX-dropped;
  - telemetry (/tagpipe/stats, /tagpipe/drops, /tagpipe/ports) = the prompt;
  - tagpipe-replay --stats JSON on the same input and program: the same
    rx, verdict_drop and vlan_too_short;
  - every mbuf back in the pool at exit."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdlib  # noqa: E402
import fwd_telemetry  # noqa: E402

REPEAT = 60
BAD = 10


def make_input(path):
    # scapy runs under /usr/bin/python3 (Debian's python3-scapy).
    src = os.path.join(fwdlib.source_root(), 'pcaps', 'pipeline', 'acl_input.pcap')
    script = '''
import sys
from scapy.all import rdpcap, wrpcap, Ether, Dot1Q, raw
good = [raw(p) for p in rdpcap(sys.argv[1])]
# 802.1Q TPID, then one byte of the 4-byte tag: cut inside the tag
bad = raw(Ether(dst="02:00:00:00:00:09", src="02:00:00:00:00:08", type=0x8100))
bad = bad + b"\\x00"
frames = good * int(sys.argv[3]) + [bad] * int(sys.argv[4])
wrpcap(sys.argv[2], [Ether(f) for f in frames])
'''
    subprocess.run(['/usr/bin/python3', '-c', script, src, path, str(REPEAT), str(BAD)],
                   check=True)


def count(path):
    return len(fwdlib.read_pcap(path))


def main():
    with tempfile.TemporaryDirectory(prefix='tpops_cnt') as tmp:
        check(tmp)


def check(tmp):
    c = fwdlib.Checker()
    pp = os.path.join(fwdlib.source_root(), 'pcaps', 'pipeline')
    rules = os.path.join(pp, 'acl_rules.txt')
    n_acl = count(os.path.join(pp, 'acl_input.pcap'))
    n_drop = count(os.path.join(pp, 'acl_expected_drop.pcap'))
    inp = os.path.join(tmp, 'in.pcap')
    make_input(inp)
    total = REPEAT * n_acl + BAD
    want_verdict = REPEAT * n_drop
    want_pass = REPEAT * (n_acl - n_drop)
    c.eq('input frames', count(inp), total)

    eal = fwdlib.eal_args('tpops_cnt', [
        'net_pcap0,rx_pcap=%s,tx_pcap=/dev/null' % inp,
        'net_aqc_sim1,wire=loop,mode=step'])
    prefix = os.path.basename(fwdlib.runtime_dir(eal))
    tel = {}

    def consumed(text):
        return fwdlib.last_port_stats(text).get(0, {}).get('rx') == total

    def ask():
        import time
        time.sleep(1)      # the lcore finishes the last burst
        tel.update(fwd_telemetry.query(prefix, ['/tagpipe/stats', '/tagpipe/drops',
                                                '/tagpipe/ports']))

    rc, out, err = fwdlib.run_prompt(
        eal, ['--forward-mode', 'pipeline', '--gro', 'off', '--txd', '64',
              '--verdict', 'acl:' + rules, '--record-stage-cycles'],
        [('start', consumed), (None, ask), ('show pipeline stats', 0.3),
         ('stop', 0.5), ('show fwd stats all', 0.3), ('show pipeline stats', 0.3),
         ('quit', 0)])
    print(out)
    print(err, file=sys.stderr)
    c.eq('exit status', rc, 0)
    pl = fwdlib.pipeline_stats(out)
    c.true('pipeline statistics printed', len(pl) >= 2)
    last = pl[-1]
    reasons = dict(re.findall(r' (\w+)=(\d+)', re.findall(r'Drop-reasons:([^\n]*)', out)[-1]))
    reasons = {k: int(v) for k, v in reasons.items()}
    ports = (tel.get('/tagpipe/ports') or {})
    took = (ports.get('1') or {}).get('tx')
    c.true('port 1 TX ring took some frames and refused some',
           took is not None and 0 < took < want_pass)
    want_reasons = {'verdict_drop': want_verdict, 'vlan_too_short': BAD,
                    'tx_full': want_pass - (took or 0)}
    c.eq('prompt: Drop-reasons', reasons, want_reasons)
    c.eq('prompt: RX-frames', last['rx'], total)
    c.eq('prompt: Drop = sum of the reasons', last['drop'], sum(want_reasons.values()))
    c.eq('prompt: Pass = frames that left', last['pass'], took)
    cyc = re.findall(r'Stage (\w+)\s+calls \d+\s+in (\d+).*?cycles/mbuf ([\d.]+)', out)
    c.true('--record-stage-cycles: cycles/mbuf > 0 for every stage that ran',
           cyc and all(float(x) > 0 for s, n, x in cyc[-5:] if int(n) > 0))

    fwd = fwdlib.fwd_stats(out[out.find('tagpipe> stop'):])
    c.true('forward stats: one stream that worked', len(fwd) >= 1)
    rx, tx, dropped = fwd[0][4], fwd[0][5], fwd[0][6]
    c.eq('forward stats: RX', rx, total)
    c.eq('forward stats: TX = what the TX ring took', tx, took)
    c.eq('forward stats: TX-dropped = every drop', dropped, sum(want_reasons.values()))
    c.eq('forward stats: RX = TX + TX-dropped', rx, tx + dropped)
    acc = fwdlib.fwd_accumulated(out[out.find('tagpipe> stop'):])
    c.eq('accumulated TX-dropped', acc[0]['tx_dropped'] if acc else None, dropped)

    st = tel.get('/tagpipe/stats') or {}
    for k in ('rx', 'pass', 'tx', 'redirect', 'drop', 'aborted'):
        c.eq('telemetry /tagpipe/stats %s = prompt' % k, st.get(k), last[k])
    dr = {k: v for k, v in (tel.get('/tagpipe/drops') or {}).items() if v}
    c.eq('telemetry /tagpipe/drops = prompt Drop-reasons', dr, want_reasons)
    c.eq('telemetry /tagpipe/ports 1 tx_full', (ports.get('1') or {}).get('tx_full'),
         want_reasons['tx_full'])

    r = subprocess.run([os.path.join(fwdlib.build_root(), 'apps', 'replay', 'tagpipe-replay'),
                        '-l', '0', '--no-huge', '--no-shconf', '-m', '256', '--no-pci',
                        '--file-prefix=tpops_cnt_replay_%d' % os.getpid(), '--',
                        '-i', inp, '--gro', 'off', '--verdict', 'acl:' + rules,
                        '--stats', '-', '--quiet'], capture_output=True, text=True, timeout=120)
    print(r.stderr, file=sys.stderr)
    c.eq('tagpipe-replay exit status', r.returncode, 0)
    rj = json.loads(r.stdout) if r.returncode == 0 else {}
    c.eq('replay JSON rx', rj.get('rx'), total)
    rr = rj.get('drop_reasons') or {}
    c.eq('replay JSON verdict_drop = fwd', rr.get('verdict_drop'), reasons.get('verdict_drop'))
    c.eq('replay JSON vlan_too_short = fwd', rr.get('vlan_too_short'),
         reasons.get('vlan_too_short'))
    c.eq('replay JSON pass = fwd Pass + tx_full (no TX ring there)', rj.get('pass'),
         last['pass'] + want_reasons['tx_full'])
    c.eq('mbufs in use after shutdown', fwdlib.mempool_in_use(out), 0)
    if c.failures:
        c.exit()
    print('0 failure(s)')


if __name__ == '__main__':
    main()
