"""The region extractor, the default single-page method: DOM PageRank's analysis with a
learned choice of the article's element (:mod:`.candidates`) and of what to leave out of
it (:mod:`.cleaning`, with :mod:`.context`); :mod:`.extractor` runs both."""
