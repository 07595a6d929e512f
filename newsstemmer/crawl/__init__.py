"""The Scrapy layer of newsstemmer: learn news sites' layouts while crawling them.

``scrapy crawl news -a urls=https://example.com/`` (from the repository root)
crawls same-site links, records every anchor text of every link (linkinfo),
buffers each site's pages until enough of them have been seen, learns the site's
layouts off the reactor thread, saves ``patterns/<site>.json``, and emits clean
articles (title and body) to the feeds.  Later crawls load the saved patterns and
extract from the first page.

Modules:

* :mod:`.spiders.news`: the ``news`` spider (start URLs, same-site links, linkinfo);
* :mod:`.items`: :class:`FetchedPage` (spider output) and :class:`Article` (feed items);
* :mod:`.middleware`: applies known layouts to pages leaving the spider;
* :mod:`.pipeline`: buffers pages no known layout matches;
* :mod:`.learner`: learning rounds and emission through the engine;
* :mod:`.buffer`, :mod:`.linkinfo`, :mod:`.frontier`: the SQLite stores in the
  state folder (buffered pages, anchor texts, scheduled/done pages for resuming);
* :mod:`.storage`: one interface per store, SQLite (the files above, one process) or
  Redis (``NEWSSTEMMER_REDIS_URL``: many workers share one crawl; scrapy-redis's
  scheduler, emit claims, site leases); :mod:`.sharing`: what a worker of such a crawl
  does besides (leases, heartbeat, patterns learned elsewhere, the common end);
* :mod:`.patternfiles`: the pattern files (loading, new versions, retiring layouts);
* scheduled monitoring: :mod:`.incremental` (send each article once, then its updates),
  with its stores :mod:`.history` (emitted articles) and :mod:`.fetchlog` (validators,
  check times); :mod:`.discovery` (feeds and sitemaps); :mod:`.metadata` (publication
  date, canonical URL); :mod:`.monitor` (coverage, drift, health records, alerts) with
  :mod:`.runlog` (past runs); :mod:`.monitors` (the optional Spidermon suite);
* :mod:`.feeds`: a local feed storage that loses no written item to ``kill -9``;
* :mod:`.testing`: a generated test site, a local server, running ``scrapy crawl``;
* :mod:`.extension`, :mod:`.addon`: wiring (``ADDONS``) and the close report;
* :mod:`.config`: the ``NEWSSTEMMER_*`` settings;
* :mod:`.settings`: the project's Scrapy settings.

Nothing here is imported by the core (``newsstemmer``), which knows nothing of Scrapy.
"""
