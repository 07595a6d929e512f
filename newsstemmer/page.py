"""A fetched page as the core sees it: decoded HTML, URL, and the anchor texts pointing to it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .blocks import BlockOptions, PageBlocks, page_blocks

__all__ = ["Page"]


@dataclass
class Page:
    """One page of a site.

    ``anchor_texts`` are the texts of same-site links pointing at this page
    (linkinfo); they are the best evidence of its headline.  ``source`` is how
    the user named the page (a path, a URL) and is echoed in outputs.
    """

    html: str
    url: str | None = None
    anchor_texts: list[str] = field(default_factory=list)
    source: str | None = None
    _blocks: PageBlocks | None = field(default=None, repr=False, compare=False)
    _blocks_opts: BlockOptions | None = field(default=None, repr=False, compare=False)

    def blocks(self, options: BlockOptions | None = None) -> PageBlocks:
        """The page's layout blocks (computed once per segmenter setting)."""
        opts = options or BlockOptions()
        if self._blocks is None or self._blocks_opts != opts:
            self._blocks = page_blocks(self.html, opts)
            self._blocks_opts = opts
        return self._blocks

    @property
    def name(self) -> str:
        return self.source or self.url or "<page>"
