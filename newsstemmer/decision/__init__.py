"""The learned block decision (issue #12): which layout blocks of a page are its article."""
