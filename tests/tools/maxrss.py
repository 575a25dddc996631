#!/usr/bin/env python3
"""maxrss.py FILE CMD...: runs CMD (its standard streams and exit status
passed through) and writes its peak resident set size, in KiB, to FILE."""
import resource
import subprocess
import sys

rc = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)
