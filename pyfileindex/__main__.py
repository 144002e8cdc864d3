"""`python -m pyfileindex ...`: the same command line as the `pyfileindex` script."""

import sys

from pyfileindex.cli import main

if __name__ == "__main__":
    sys.exit(main())
