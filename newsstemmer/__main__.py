"""``python -m newsstemmer``: the same as the ``newsstemmer`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
