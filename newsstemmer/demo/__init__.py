"""A bundled demo news site, generated in memory and served on a loopback port.

::

    from . import build_site, DemoServer
    site = build_site()                 # seed 7, 120 articles, deterministic
    with DemoServer(site) as server:    # http://127.0.0.1:<ephemeral port>
        print(server.base_url, len(site.articles()))
    truth = site.truth()                # {path: (title, body)} of every article

Long runs (months of days, several sites): ``DemoDays(seed, schedule=Schedule.long(new_per_day=50))``
makes each day's site from the day before, its article pages rendered on request from the seed
(:mod:`.longrun`; ``benchmarks/soak.py``).

``python -m newsstemmer.demo`` serves it until interrupted (``--out DIR`` writes it to disk).
"""

from .days import Schedule
from .server import DemoServer
from .sitemodel import SECTIONS, DemoPage, DemoSite, Section
from .site import DemoDays, build_site

__all__ = ["DemoDays", "DemoPage", "DemoServer", "DemoSite", "SECTIONS", "Schedule", "Section", "build_site"]
