"""Project commands of ``scrapy`` (``COMMANDS_MODULE``): ``scrapy state``."""
