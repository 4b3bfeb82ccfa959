"""Entry point of the PyInstaller bundle: the ``zperflab`` command.

``freeze_support`` first: the local sweep pool starts its worker processes
with the spawn method, which in a frozen program re-runs this executable.
"""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from app.cli import main

    sys.exit(main())
