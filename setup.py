"""Build of the optional compiled graph walk (``newsstemmer.single._domwalk``, Cython over
libxml2's tree through lxml's public C API), headline and body walks (``metadata._hoodwalk``,
``pagetype._bodywalk``) and tree models' walk (``newsstemmer._trees``);
everything else is in pyproject.toml.

The extensions are optional: without Cython, lxml's headers or a C compiler, or if one fails
to compile, the package installs without it (with a warning) and uses its pure-Python (numpy)
form.
"""

import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _warn(exc: BaseException, name: str = "") -> None:
    what = f"the compiled {name}" if name else "a compiled extension (graph walk, tree models)"
    print(f"WARNING: newsstemmer: {what} was not built ({exc}); its pure-Python form is used", file=sys.stderr)


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
            _warn(exc, ext.name)

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
    # (the weights' floating-point operations exactly as written: no fused multiply-add)
    args = ["-O2", "-ffp-contract=off"] if sys.platform != "win32" else []
    exts = [
        Extension("newsstemmer.single._domwalk", ["newsstemmer/single/_domwalk.pyx"],
                  include_dirs=lxml.get_include(), extra_compile_args=args, optional=True),
        # (the metadata's headline neighbourhood walk: lxml's structs, as _domwalk)
        Extension("newsstemmer.metadata._hoodwalk", ["newsstemmer/metadata/_hoodwalk.pyx"],
                  include_dirs=lxml.get_include(), extra_compile_args=args, optional=True),
        # (page typing's walk of the body, which feeds that neighbourhood: lxml's structs, as _domwalk)
        Extension("newsstemmer.pagetype._bodywalk", ["newsstemmer/pagetype/_bodywalk.pyx"],
                  include_dirs=lxml.get_include(), extra_compile_args=args, optional=True),
        # (the tree models' leaves: comparisons only, no header beyond Python's)
        Extension("newsstemmer._trees", ["newsstemmer/_trees.pyx"], extra_compile_args=args, optional=True),
    ]
    try:
        return cythonize(exts, language_level=3, quiet=True)
    except Exception as exc:  # (a Cython error: install without it)
        _warn(exc)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
