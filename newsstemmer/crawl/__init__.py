"""The Scrapy layer of newsstemmer: learn news sites' layouts while crawling them.

``scrapy crawl news -a urls=https://example.com/`` (from the repository root)
crawls same-site links, records every anchor text of every link (linkinfo),
buffers each site's pages until enough of them have been seen, learns the site's
layouts off the reactor thread, saves ``patterns/<site>.json``, and emits clean
articles (title and body) to the feeds.  Later crawls load the saved patterns and
extract from the first page.

Modules:

* :mod:`.spiders.news`: the ``news`` spider (start URLs, same-site links, linkinfo), with
  :mod:`.link_reading` (the links of a page, read from the tree extraction reads);
* :mod:`.items`: :class:`FetchedPage` (spider output) and :class:`ArticleItem` (feed items;
  ``Article`` is the same class);
* :mod:`.middleware`: applies known layouts to pages leaving the spider;
* :mod:`.pipeline`: buffers pages no known layout matches;
* :mod:`.learner`: patterns, the buffer, learning rounds; :mod:`.work` decides where each
  job runs (reactor thread, worker thread, or the second process: :mod:`.sidecar`, which
  speaks :mod:`.sidecar_protocol`); :mod:`.outbox` is the one way articles go back into
  the engine; :mod:`.rounds`: extraction and rounds as plain functions;
* :mod:`.storage`: every store of the crawl, opened through :class:`~.storage.Storage`:
  SQLite files in the state folder for one process (``storage.sqlite_*``: buffered pages,
  anchor texts, scheduled/done pages, emitted articles, fetch records, past runs), or
  Redis (``NEWSSTEMMER_REDIS_URL``: many workers share one crawl; scrapy-redis's
  scheduler, emit claims, site leases); :mod:`.sharing`: what a worker of such a crawl
  does besides (leases, heartbeat, patterns learned elsewhere, the common end);
* :mod:`.patternfiles`: the pattern files (loading, new versions, retiring layouts);
* scheduled monitoring: :mod:`.incremental` (send each article once, then its updates);
  :mod:`.discovery` (feeds and sitemaps); :mod:`.monitor` (coverage, drift, health records, alerts);
  :mod:`.spidermon_suite` (the optional Spidermon suite);
* :mod:`.feeds`: a local feed storage that loses no written item to ``kill -9``;
* :mod:`.testing`: a generated test site, a local server, running ``scrapy crawl``;
* :mod:`.extension`, :mod:`.addon`: wiring (``ADDONS``) and the close report;
* :mod:`.config`: the ``NEWSSTEMMER_*`` settings;
* :mod:`.settings`: the project's Scrapy settings.

Nothing here is imported by the core (``newsstemmer``), which knows nothing of Scrapy.
"""
