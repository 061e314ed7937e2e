"""The version of snapsolve (read by pyproject.toml and `snapsolve --version`)."""

__version__ = "0.2.0"
