"""Template discovery by substring amplification (SPEC §3).

* :mod:`.spectrum`: V(f) from a suffix array and LCP array, in linear time;
* :mod:`.reference`: the natural-language reference of the automatic boundary;
* :mod:`.amplification`: F(f), peaks, template parts, groups, and ``pregroup``;
* :mod:`.skeletons`: a page's tag skeleton (what its template fixes).
"""

from .amplification import (
    DEFAULT_ALPHA,
    DEFAULT_DELTA,
    DEFAULT_SHARE,
    Amplification,
    Grouping,
    TemplatePart,
    amplify,
    pregroup,
)
from .reference import Reference, load_reference, normalized
from .skeletons import skeleton
from .spectrum import Progress

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_DELTA",
    "DEFAULT_SHARE",
    "Amplification",
    "Grouping",
    "Progress",
    "Reference",
    "TemplatePart",
    "amplify",
    "load_reference",
    "normalized",
    "pregroup",
    "skeleton",
]
