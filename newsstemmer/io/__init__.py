"""Input for the front ends: page files and directories (:mod:`.files`), WARC archives
(:mod:`.warc`) and the anchor texts of links to pages (:mod:`.linkinfo`)."""
