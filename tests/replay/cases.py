"""The runner both replay test scripts share: CASE names a case_CASE
function, run in a fresh work directory; exit 0 prints 'CASE: ok'."""
import os
import sys
import tempfile


def main(namespace):
    case = namespace.get("case_" + sys.argv[2])
    if case is None:
        sys.exit(f"unknown case {sys.argv[2]}")
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "w")
        os.mkdir(work)
        case(work)
    print(f"{sys.argv[2]}: ok")
