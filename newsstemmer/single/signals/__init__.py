"""Page signals every single-page method may read: role hints of ``id``/``class`` values
(:mod:`.hints`) and the page's own title, description and element roles
(:mod:`.page_signals`)."""
