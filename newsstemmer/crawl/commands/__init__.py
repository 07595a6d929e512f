"""Project commands of ``scrapy`` (``COMMANDS_MODULE``): ``scrapy state``, and ``scrapy crawl``
with an exit status that says when a crawl failed."""
