# SPDX-License-Identifier: BSD-3-Clause
"""tagpipe-fwd's prompt completes commands with TAB, as testpmd's does.

librte_cmdline only edits lines on a terminal, so the prompt runs on a
pseudo-terminal here: TAB after a unique prefix must complete the word, TAB
TAB after an ambiguous one must list the choices, and the completed command
must then run.
"""
import os
import pty
import select
import signal
import sys
import time

import fwdlib


def read_until(fd, want, timeout=20.0):
    """Read from fd until `want` (bytes) appears; return everything read."""
    buf = b''
    end = time.monotonic() + timeout
    while want not in buf:
        left = end - time.monotonic()
        if left <= 0:
            sys.exit('timed out waiting for %r; screen so far:\n%s'
                     % (want, buf.decode(errors='replace')))
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b''
            if not chunk:
                sys.exit('tagpipe-fwd exited; screen:\n' + buf.decode(errors='replace'))
            buf += chunk
    return buf


def type_keys(fd, keys, expect, quiet=0.5, timeout=20.0):
    """Type keys, then read until `expect` has appeared and the terminal has
    been quiet for `quiet` seconds, so each step sees only its own echo."""
    os.write(fd, keys)
    buf = b''
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            if expect in buf:
                return buf
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b''
        if not chunk:
            break
        buf += chunk
    sys.exit('after typing %r, %r never appeared; screen:\n%s'
             % (keys, expect, buf.decode(errors='replace')))


def main():
    eal = fwdlib.eal_args('tpfwd_compl', ['net_null0', 'net_null1'])
    argv = [fwdlib.fwd_binary()] + eal + ['--', '-i']
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    try:
        read_until(fd, b'tagpipe> ')
        # Unique prefix: "sho" + TAB completes to "show ".
        type_keys(fd, b'sho\t', b'show ')
        # Ambiguous next word: TAB TAB lists the choices after "show ".
        screen = type_keys(fd, b'\t\t', b'pipeline')
        for word in (b'port', b'pipeline'):
            if word not in screen:
                sys.exit('choices after "show " lack %r:\n%s' % (word, screen.decode(errors='replace')))
        # Complete "pip" to "pipeline", then "st" to "stats", and run it.
        type_keys(fd, b'pip\t', b'peline ')
        type_keys(fd, b'st\t', b'ats ')
        # Before "start" there is no pipeline instance, and the command says so.
        type_keys(fd, b'\r', b'No pipeline instance')
        # Free words with suggestions: TAB TAB lists the programs (not
        # "[Any STRING]"), a bad word gets the command's error with the
        # valid values instead of "Bad arguments".
        type_keys(fd, b'set verd\t', b'verdict ')
        screen = type_keys(fd, b'\t\t', b'by-switch-port')
        if b'Any STRING' in screen:
            sys.exit('set verdict TAB TAB shows [Any STRING]:\n' + screen.decode(errors='replace'))
        type_keys(fd, b'pass\r', b'Verdict program set to pass')
        type_keys(fd, b'set fwd \t\t', b'txonly')
        type_keys(fd, b'foo\r', b"unknown mode 'foo' (one of pipeline io mac macswap rxonly txonly)")
        # set verbose: TAB completes the keyword, TAB TAB lists the levels.
        type_keys(fd, b'set verb\t', b'verbose ')
        screen = type_keys(fd, b'\t\t', b'3')
        if b'Any STRING' in screen or b'0' not in screen:
            sys.exit('set verbose TAB TAB does not list the levels:\n' +
                     screen.decode(errors='replace'))
        type_keys(fd, b'2\r', b'Change verbose level from 0 to 2')
        type_keys(fd, b'set verbose 9\r', b"bad level '9' (0 off, 1 received, 2 sent, 3 both)")
        # quit: the exit status is checked below.
        os.write(fd, b'quit\r')
        print('ok: TAB completes show, pipeline, stats; TAB TAB lists choices; the command runs; '
              'set verdict/fwd/verbose list their words and name a bad one')
    finally:
        # On a failure above the prompt is still running: end it first.
        for _ in range(200):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
        fwdlib.cleanup_runtime(eal)
    if os.WIFSIGNALED(status):
        sys.exit('tagpipe-fwd did not quit (killed by signal %d)' % os.WTERMSIG(status))
    if os.WEXITSTATUS(status) != 0:
        sys.exit('tagpipe-fwd exit status %d' % os.WEXITSTATUS(status))


if __name__ == '__main__':
    main()
