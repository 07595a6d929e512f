"""Combinations of methods: the extraction chain (layouts, then a single-page method,
then the per-page choice), learning (template pre-grouping, layouts, then the section
decision), CSS rules from a single-page extractor's choices, CRF labels from layouts."""
