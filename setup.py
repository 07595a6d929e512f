"""Build of the optional compiled graph walk (``newsstemmer.single._domwalk``, Cython over
libxml2's tree through lxml's public C API); everything else is in pyproject.toml.

The extension is optional: without Cython, lxml's headers or a C compiler, or if it fails to
compile, the package installs without it (with a warning) and uses the pure-Python walk.
"""

import sys

from setuptools import setup


def _extensions() -> list:
    try:
        import lxml
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        print(f"newsstemmer: not building the compiled graph walk ({exc}); the pure-Python one is used",
              file=sys.stderr)
        return []
    ext = Extension(
        "newsstemmer.single._domwalk",
        ["newsstemmer/single/_domwalk.pyx"],
        include_dirs=lxml.get_include(),
        # (the weights' floating-point operations exactly as written: no fused multiply-add)
        extra_compile_args=["-O2", "-ffp-contract=off"] if sys.platform != "win32" else [],
        optional=True,
    )
    try:
        return cythonize([ext], language_level=3, quiet=True)
    except Exception as exc:  # (a Cython error: install without it)
        print(f"newsstemmer: not building the compiled graph walk ({exc}); the pure-Python one is used",
              file=sys.stderr)
        return []


setup(ext_modules=_extensions())
