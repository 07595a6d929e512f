"""Build of the optional compiled graph walk (``newsstemmer.single._domwalk``, Cython over
libxml2's tree through lxml's public C API); everything else is in pyproject.toml.

The extension is optional: without Cython, lxml's headers or a C compiler, or if it fails to
compile, the package installs without it (with a warning) and uses the pure-Python walk.
"""

import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _warn(exc: BaseException) -> None:
    print(f"WARNING: newsstemmer: the compiled graph walk was not built ({exc}); "
          "the pure-Python one is used", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` whose failure (no compiler, a compile error) leaves the package without
    the extension instead of failing the install (``Extension(optional=True)`` is not
    honoured by every path: an editable install re-raises)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _warn(exc)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _warn(exc)

    def copy_extensions_to_source(self) -> None:
        try:
            super().copy_extensions_to_source()
        except Exception as exc:  # (an extension that failed has nothing to copy)
            _warn(exc)


def _extensions() -> list:
    try:
        import lxml
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        _warn(exc)
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
        _warn(exc)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
