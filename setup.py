"""Build the compiled event engine in place (optional; pure Python without it).

    python setup.py build_ext --inplace     # packaging/setup.sh runs this

Cython compiles ``models/engine/core.py`` in pure-Python mode, with the types
in ``core.pxd``, into ``models/engine/core.*.so`` beside it. The package's
metadata is in setup.cfg; without Cython (``pip install -e .`` in an isolated
build) there is nothing to compile and zPerfLab runs the engine interpreted.
"""
from setuptools import setup


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


setup(ext_modules=engine_extensions())
