"""What the replay test scripts share: main() runs the case CASE names
(a case_CASE function) in a fresh work directory, exit 0 printing
'CASE: ok'; run_tool() runs tagpipe-replay and stops the test on an
unexpected exit status, with both outputs."""
import os
import subprocess
import sys
import tempfile


def run_tool(tool, args, expect_rc=0, cwd=None):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=300,
                       cwd=cwd)
    if p.returncode != expect_rc:
        sys.exit(f"exit {p.returncode}, expected {expect_rc}: {args}\n"
                 f"stdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


def main(namespace):
    case = namespace.get("case_" + sys.argv[2])
    if case is None:
        sys.exit(f"unknown case {sys.argv[2]}")
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "w")
        os.mkdir(work)
        case(work)
    print(f"{sys.argv[2]}: ok")
