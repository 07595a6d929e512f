"""Local feed files that keep every written item even if the process is killed.

Scrapy's file feed storage writes through an 8 KB buffer: after ``kill -9`` the
last items written may be missing from the file while the crawl already counted
them as done.  :class:`FlushingFileFeedStorage` hands every item to the
operating system as it is written (the cost: one ``write`` call per item), so
an item the crawl saw written (``item_scraped``) is in the file.  The add-on
installs it for ``file://`` and plain-path feeds unless the project has its own.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, Any

from scrapy.extensions.feedexport import FileFeedStorage

__all__ = ["FlushingFileFeedStorage"]


class _FlushingWriter(io.BufferedWriter):
    def write(self, data: Any) -> int:
        n = super().write(data)
        self.flush()
        return n


class FlushingFileFeedStorage(FileFeedStorage):
    def open(self, spider: Any) -> IO[bytes]:
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return _FlushingWriter(io.FileIO(path, self.write_mode))
