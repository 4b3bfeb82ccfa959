"""Build the compiled event engine in place (optional; pure Python without it).

    python packaging/build_engine.py        # packaging/setup.sh runs this

Cython compiles ``models/engine/core.py`` in pure-Python mode, with the types
in ``core.pxd``, into ``models/engine/core.*.so`` beside it. The package's
metadata is in setup.cfg; without Cython (``pip install -e .`` in an isolated
build) there is nothing to compile and zPerfLab runs the engine interpreted.
"""
import os
import sys

from setuptools import setup

#: The project's top level: the extension's module path is relative to it.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def engine_extensions() -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    from setuptools import Extension
    return cythonize(
        [Extension("models.engine.core", ["models/engine/core.py"], optional=True)],
        language_level=3,
        compiler_directives={"boundscheck": False, "cdivision": True,
                             "initializedcheck": False, "warn.unreachable": False},
        quiet=True,
    )


if __name__ == "__main__":
    os.chdir(ROOT)
    # Only the extension: the package itself is installed from setup.cfg by pip.
    setup(name="zperflab-engine", ext_modules=engine_extensions(), packages=[],
          script_args=["-q", "build_ext", "--inplace", *sys.argv[1:]])
