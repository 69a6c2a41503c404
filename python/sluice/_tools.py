"""The console scripts of the installed package (``sluice-ls``,
``sluice-opt``, ``sluice-compile``, ``sluice-run``): each runs the tool of the
same name that the wheel carries in ``sluice/bin``, with the same arguments.
"""

import os
import sys

_BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin")


def _run(name):
    path = os.path.join(_BIN, name)
    if not os.access(path, os.X_OK):
        sys.stderr.write(
            f"{name}: this installation of sluice has no {path}\n"
        )
        sys.exit(127)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path] + sys.argv[1:])


def sluice_ls():
    _run("sluice-ls")


def sluice_opt():
    _run("sluice-opt")


def sluice_compile():
    _run("sluice-compile")


def sluice_run():
    _run("sluice-run")
