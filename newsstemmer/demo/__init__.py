"""A bundled demo news site, generated in memory and served on a loopback port.

::

    from . import build_site, DemoServer
    site = build_site()                 # seed 7, 120 articles, deterministic
    with DemoServer(site) as server:    # http://127.0.0.1:<ephemeral port>
        print(server.base_url, len(site.articles()))
    truth = site.truth()                # {path: (title, body)} of every article

``python -m newsstemmer.demo`` serves it until interrupted (``--out DIR`` writes it to disk).
"""

from .server import DemoServer
from .sitemodel import SECTIONS, DemoPage, DemoSite, Section
from .site import build_site

__all__ = ["DemoPage", "DemoServer", "DemoSite", "SECTIONS", "Section", "build_site"]
