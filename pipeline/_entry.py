"""The `snapsolve` console script: `snapsolve --version` is answered before the command
line library loads (it alone costs more than the 0.3 s a version query may take); everything
else goes to `pipeline.cli`."""

from __future__ import annotations

import sys

VERSION_FLAGS = (["--version"],)  # argument lists answered here, as cli.py answers them


def main() -> None:
    """Print the version for `--version`; run the command for anything else."""
    if sys.argv[1:] in VERSION_FLAGS:
        from ._version import __version__

        print(f"snapsolve {__version__}")
        sys.exit(0)
    from .cli import main as run

    run()
