# Inline helpers over libxml2's nodes (the structs lxml's tree is made of), shared by the
# compiled walks ``single/_domwalk.pyx``, ``metadata/_hoodwalk.pyx`` and
# ``pagetype/_bodywalk.pyx``: each cimports them
# and compiles them into itself (there is no module of this name). Each reads the tree as
# lxml reads it, so that a walk sees what the Python reference's lxml calls see.

from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode


cdef inline bint streq(const char* a, const char* b) noexcept nogil:
    # whether two NUL-terminated strings are equal (strcmp(a, b) == 0)
    cdef size_t k = 0
    while a[k] != 0 and a[k] == b[k]:
        k += 1
    return a[k] == b[k]


cdef inline bint is_element(xmlNode* c) noexcept nogil:
    # an element (not a text, comment, processing instruction, entity reference, ...)
    return c.type == tree.XML_ELEMENT_NODE


cdef inline bint namespaced(xmlNode* c) noexcept nogil:
    # whether lxml's el.tag is "{href}name" (a namespace with a URI), not the bare name
    return c.ns is not NULL and c.ns.href is not NULL


cdef inline xmlNode* text_or_skip(xmlNode* c) noexcept nogil:
    # lxml's _textNodeOrSkip: a text run is text and CDATA nodes, XInclude markers passed
    # over; NULL where the run ends
    while c is not NULL:
        if c.type == tree.XML_TEXT_NODE or c.type == tree.XML_CDATA_SECTION_NODE:
            return c
        if c.type == tree.XML_XINCLUDE_START or c.type == tree.XML_XINCLUDE_END:
            c = c.next
        else:
            return NULL
    return NULL


cdef inline xmlAttr* find_attribute(xmlNode* c, const char* name) noexcept nogil:
    # the attribute el.get(name) reads: the first of that name outside any namespace, or NULL
    cdef xmlAttr* a = c.properties
    while a is not NULL:
        if a.ns is NULL and streq(<const char*>a.name, name):
            return a
        a = a.next
    return NULL


# Case-insensitive tests of plain-ASCII attribute values for words, shared by the walks that
# read class, id and href values without making strings of them.

cdef inline unsigned char ascii_lower(unsigned char b) noexcept nogil:
    return b + 32 if 65 <= b <= 90 else b


cdef inline bint opens_with(const unsigned char* s, const char* word) noexcept nogil:
    # whether s opens with word (lower-case ASCII), in any case
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if s[k] == 0 or ascii_lower(s[k]) != <unsigned char>word[k]:
            return False
        k += 1
    return True


cdef inline bint byline_words(const unsigned char* s) noexcept nogil:
    # neighbourhood.BYLINE_MARK.search on a plain-ASCII s: one of "byline", "author",
    # "username", "user-name", "postuser" in any case (one pass, by each word's first letter)
    cdef Py_ssize_t i = 0
    cdef unsigned char ch
    while s[i] != 0:
        ch = ascii_lower(s[i])
        if ch == b'b':
            if opens_with(s + i, "byline"):
                return True
        elif ch == b'a':
            if opens_with(s + i, "author"):
                return True
        elif ch == b'u':
            if opens_with(s + i, "username") or opens_with(s + i, "user-name"):
                return True
        elif ch == b'p':
            if opens_with(s + i, "postuser"):
                return True
        i += 1
    return False


cdef struct WordTable:
    # up to 32 lower-case ASCII words sorted by first letter, and per first letter the range
    # of words starting with it (the words' bytes are kept alive by the caller)
    const char* word[32]
    unsigned char start[256]
    unsigned char stop[256]


cdef inline tuple fill_word_table(WordTable* table, words):
    # fill table from words (non-empty lower-case ASCII, at most 32); returns the bytes the
    # table points into, which the caller must keep
    from newsstemmer.errors import NewsstemmerError
    cdef bytes w
    cdef unsigned char first
    cdef Py_ssize_t k
    cdef list listed = []
    for word in words:
        listed.append(word.encode("ascii"))
    listed.sort()  # (grouped by first letter)
    encoded = tuple(listed)
    if len(encoded) > 32:
        raise NewsstemmerError(f"AUTHOR_WORDS holds more than 32 words: {words!r}")
    for w in encoded:
        if not w or w.lower() != w or b"\0" in w:
            raise NewsstemmerError(f"AUTHOR_WORDS must be non-empty lower-case words: {w!r}")
    for k in range(256):
        table.start[k] = table.stop[k] = 0
    for k in range(len(encoded)):
        w = encoded[k]
        table.word[k] = <const char*>w
        first = (<const unsigned char*>table.word[k])[0]
        if table.stop[first] == 0:
            table.start[first] = <unsigned char>k
        table.stop[first] = <unsigned char>(k + 1)
    return encoded


cdef inline bint holds_word(const unsigned char* s, const WordTable* table) noexcept nogil:
    # whether a plain-ASCII s holds one of the table's words in any case (one pass, each
    # position against the words that start with its letter)
    cdef Py_ssize_t i = 0, k
    cdef unsigned char ch
    while s[i] != 0:
        ch = ascii_lower(s[i])
        for k in range(table.start[ch], table.stop[ch]):
            if opens_with(s + i, table.word[k]):
                return True
        i += 1
    return False
