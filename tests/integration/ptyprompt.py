# SPDX-License-Identifier: BSD-3-Clause
"""Drive an interactive DPDK prompt (dpdk-testpmd's or tagpipe-fwd's) in a
pseudo-terminal, one command at a time, and give back what each command
printed. In a terminal both programs' stdout is line-buffered, so a
command's output arrives before the next prompt (through a pipe, testpmd's
buffered printf lands after later prompts)."""
import os
import pty
import re
import select
import signal
import time


class Prompt:
    def __init__(self, argv, prompt, timeout=30, env=None):
        self.prompt = prompt.encode()
        self.timeout = timeout
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execve(argv[0], argv, env if env is not None else os.environ)
            finally:
                os._exit(127)
        self.buf = b''
        self.log = b''
        self.banner = self._until_prompt()

    def _read(self, deadline):
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.buf += data
                self.log += data
                return True
        return False

    def _until_prompt(self):
        deadline = time.monotonic() + self.timeout
        while self.prompt not in self.buf:
            if not self._read(deadline):
                break
        out, _, self.buf = self.buf.partition(self.prompt)
        return out.decode(errors='replace')

    def pump(self, seconds):
        """Read (and keep) output for that long, so a program that prints
        while nobody types never blocks on a full terminal."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self._read(deadline):
                time.sleep(0.05)

    def exited(self):
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            return False
        self.status = status
        return True

    def cmd(self, line, settle=0.0):
        """Send line; return what it printed up to the next prompt, with
        the echoed line removed and CRLF made LF."""
        os.write(self.fd, line.encode() + b'\n')
        out = self._until_prompt()
        if settle:
            time.sleep(settle)
        out = out.replace('\r\n', '\n').replace('\r', '')
        # librte_cmdline echoes the line (and redraws on TAB); drop it.
        # The echo can come twice: cmdline_stdin_new() (DPDK
        # lib/cmdline/cmdline_socket.c) prints the prompt in cmdline_new()
        # before terminal_adjust() turns the tty's own ECHO off, so a line
        # sent right after the first prompt may be echoed by the tty and
        # then by librte_cmdline. Drop every echo among the first lines.
        lines = out.split('\n')
        last = -1
        for i in range(min(3, len(lines))):
            if line in lines[i]:
                last = i
        return '\n'.join(lines[last + 1:]) if last >= 0 else out

    def close(self, quit_line='quit'):
        try:
            os.write(self.fd, quit_line.encode() + b'\n')
        except OSError:
            pass
        deadline = time.monotonic() + self.timeout
        while self._read(deadline):
            pass
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            status = 0
        os.close(self.fd)
        self.tail = self.buf.decode(errors='replace').replace('\r\n', '\n')
        return os.waitstatus_to_exitcode(status)

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def blank_numbers(text):
    return re.sub(r'\d+', 'N', text)
