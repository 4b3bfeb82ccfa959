"""Build the compiled event engine in place (optional; pure Python without it).

    python packaging/build_engine.py [--force]   # packaging/setup.sh runs it with --force

Cython compiles ``models/engine/core.py`` and the I/O model's hot modules
(``IO_MODULES``) in pure-Python mode, with the types in the ``.pxd`` beside
each, into ``.so`` files beside them (``--force``: all of them again, as
setup.sh does when any is older than its sources or this script). The package's
metadata is in setup.cfg; without Cython (``pip install -e .`` in an isolated
build) there is nothing to compile and zPerfLab runs the engine interpreted.
"""
import os
import sys

from setuptools import setup

#: The project's top level: the extension's module path is relative to it.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


#: The I/O model's modules compiled beside the engine (each with a .pxd of its types).
IO_MODULES = ("models.io.request", "models.io.paths", "models.io.channel", "models.io.backend",
              "models.io.cache", "models.io.trace_io", "models.io.staging", "models.io.writes", "models.io.volume",
              "models.io.driver")


def engine_extensions(force: bool = False) -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    from setuptools import Extension
    engine = cythonize(
        # No fused multiply-add either (as the I/O modules below): the engine's
        # busy-time sums stay Python's arithmetic on any target.
        [Extension("models.engine.core", ["models/engine/core.py"], optional=True,
                   extra_compile_args=["-ffp-contract=off"])],
        language_level=3,
        compiler_directives={"boundscheck": False, "cdivision": True,
                             "initializedcheck": False, "warn.unreachable": False},
        quiet=True, force=force,
    )
    # The I/O model's hot modules: Python's arithmetic kept exactly (no C
    # division or modulo, no fused multiply-add), so compiled and interpreted
    # runs give the same figures to the last bit.
    io = cythonize(
        [Extension(name, [name.replace(".", "/") + ".py"], optional=True,
                   extra_compile_args=["-ffp-contract=off"])
         for name in IO_MODULES],
        language_level=3,
        compiler_directives={"boundscheck": False, "cdivision": False,
                             "initializedcheck": False, "warn.unreachable": False},
        quiet=True, force=force,
    )
    return engine + io


if __name__ == "__main__":
    os.chdir(ROOT)
    # Only the extension: the package itself is installed from setup.cfg by pip.
    setup(name="zperflab-engine", ext_modules=engine_extensions("--force" in sys.argv), packages=[],
          script_args=["-q", "build_ext", "--inplace", *sys.argv[1:]])
