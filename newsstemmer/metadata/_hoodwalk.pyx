# cython: language_level=3, boundscheck=False, wraparound=False
"""The headline neighbourhood's walk in C, over libxml2's tree (optional compiled form of
:meth:`newsstemmer.metadata.neighbourhood.HoodWalk.walk`, which stays the reference), and
the search for ``<a rel=author>`` (:func:`rel_author_links`, for ``PageFacts.author_links``)
and for the elements page facts are read from (:func:`fact_elements`); and one scan of a
page's text for what page facts look for in it (:func:`text_marks`).

The Python walk goes through lxml's ``iterwalk``: two events and one element proxy per
element, ``el.tag``, ``el.get("class")``, ``el.text`` and ``el.tail`` as new strings. Here
the tree is read as the structs lxml is built on (``children``, ``next``, ``parent``,
``content``, ``properties``), as ``_domwalk`` does (with the node helpers of
``newsstemmer/_libxml_nodes.pxd``, which both compile in), and Python objects are made only for
what the walk keeps or hands on: the text lines, the elements it hands to
:meth:`HoodWalk.start` (headings, links after the headline) and those whose class or id
marks a byline.  What it reads is what ``iterwalk`` reads: elements only (comments and
processing instructions give no event, so their tails are not read either), an element's
text and tail as lxml joins them (a run of text and CDATA nodes), a class or id value that
is not plain ASCII asked of the Python test (:func:`byline_marked`), so that its answer is
the regular expression's own.
"""

from cpython.list cimport PyList_Append
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strlen

from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode, xmlAttr
cimport lxml.includes.etreepublic as cetree

from newsstemmer._libxml_nodes cimport (WordTable, byline_words, fill_word_table, find_attribute, holds_word,
                                        is_element, namespaced, opens_with, streq, text_or_skip)


cetree.import_lxml__etree()

#: what this walk passes over and what it hands to ``HoodWalk.start`` (checked against the
#: Python module's sets where it is imported: a difference means the Python walk is used)
SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "svg"})
HEADING_OR_LINK = frozenset({"h1", "h2", "h3", "a"})
#: ``neighbourhood.AUTHOR_PAGE``'s pattern: a link's ``href`` is asked of it only where it
#: holds one of the words of :data:`AUTHOR_WORDS` in any case (or is not plain ASCII; the C
#: test's table is made from this tuple at import: lower-case ASCII words, at most 32)
AUTHOR_PAGE = (r"/(?:authors?|autor(?:es|en|i|e)?|auteurs?|writers?|journalists?|reporters?|forfatter|"
               r"skribent)/[^/?#]|[?&]author=")
AUTHOR_WORDS = ("author", "autor", "auteur", "writer", "journalist", "reporter", "forfatter", "skribent")
#: ``neighbourhood.BYLINE_MARK``'s pattern (case-insensitive), whose words :func:`_marked` looks for
MARK_PATTERN = "byline|author|user-?name|postuser"

cdef enum:
    PLAIN = 0
    SKIP = 1
    HEADING = 2
    LINK = 3


cdef int _kind(xmlNode* c) noexcept nogil:
    """Which of the walk's sets ``el.tag`` is in (a namespaced tag, ``{href}name``, is in none)."""
    if namespaced(c):
        return PLAIN
    cdef const char* name = <const char*>c.name
    if name is NULL:
        return PLAIN
    if name[0] == b'a' and name[1] == 0:
        return LINK
    if name[0] == b'h' and (name[1] == b'1' or name[1] == b'2' or name[1] == b'3') and name[2] == 0:
        return HEADING
    if (streq(name, "script") or streq(name, "style") or streq(name, "noscript")
            or streq(name, "template") or streq(name, "svg")):
        return SKIP
    return PLAIN


cdef inline xmlNode* _first_element(xmlNode* c) noexcept nogil:
    while c is not NULL and not is_element(c):
        c = c.next
    return c


cdef inline bint _ascii_space(unsigned char b) noexcept nogil:
    # (what str.strip() strips among ASCII: \t \n \v \f \r, \x1c-\x1f and the space)
    return b == 32 or (9 <= b <= 13) or (28 <= b <= 31)


cdef object _line(xmlNode* first):
    """The text run from ``first`` (lxml's ``_collectText``: ``el.text`` or ``el.tail``) if
    it has more than white space (``text.strip()``), else None."""
    cdef xmlNode* c = text_or_skip(first)
    cdef const unsigned char* s
    cdef bint high = False, seen = False
    cdef Py_ssize_t k
    cdef xmlNode* run = c
    while c is not NULL:
        s = <const unsigned char*>c.content
        if s is not NULL:
            k = 0
            while s[k] != 0:
                if s[k] >= 0x80:
                    high = True
                elif not _ascii_space(s[k]):
                    seen = True
                    break
                k += 1
        if seen:
            break
        c = text_or_skip(c.next)
    if not seen and not high:
        return None
    cdef bytes joined = b""
    c = run
    while c is not NULL:
        if c.content is not NULL:
            joined += <bytes>(<const char*>c.content)
        c = text_or_skip(c.next)
    text = PyUnicode_DecodeUTF8(joined, len(joined), NULL)
    if seen or text.strip():
        return text
    return None


# :data:`AUTHOR_WORDS` as the C test reads them, set from the tuple at import (so the two
# cannot differ; the bytes kept alive here)
cdef WordTable _author_table
cdef tuple _author_bytes = fill_word_table(&_author_table, AUTHOR_WORDS)


cdef int _marked(xmlNode* c, dict marked, object byline_marked) except -1:
    """``byline_marked(el.get("class") or el.get("id"))`` (0 or 1), with no string made
    where the value is one plain-ASCII text node."""
    cdef xmlAttr* a
    cdef const unsigned char* s
    cdef Py_ssize_t k
    cdef const char* names[2]
    cdef int n
    names[0] = "class"
    names[1] = "id"
    for n in range(2):
        a = find_attribute(c, names[n])
        if a is NULL:
            continue
        # (the first such attribute is what el.get gives)
        if a.children is NULL:
            continue  # (an empty value: "or" goes on to the id)
        if (a.children.next is NULL and a.children.type == tree.XML_TEXT_NODE
                and a.children.content is not NULL):
            s = <const unsigned char*>a.children.content
            if s[0] == 0:
                continue
            k = 0
            while s[k] != 0 and s[k] < 0x80:
                k += 1
            if s[k] == 0:
                return byline_words(s)
        value = cetree.attributeValue(c, a)
        if not value:
            continue
        found = marked.get(value)
        if found is None:
            found = byline_marked(value)
        return 1 if found else 0
    return 0


cdef bint _may_be_author_page(xmlNode* c) noexcept nogil:
    """Whether the link's ``href`` may match ``AUTHOR_PAGE`` (False: it has none, or an
    empty one, or a plain-ASCII one without any of :data:`AUTHOR_WORDS`)."""
    cdef xmlAttr* a = find_attribute(c, "href")
    cdef const unsigned char* s
    cdef Py_ssize_t k = 0
    if a is NULL or a.children is NULL:
        return False
    if a.children.next is not NULL or a.children.type != tree.XML_TEXT_NODE or a.children.content is NULL:
        return True
    s = <const unsigned char*>a.children.content
    while s[k] != 0:
        if s[k] >= 0x80:
            return True
        k += 1
    return holds_word(s, &_author_table)


def walk(object hw, object root, bint with_tail, object byline_marked):
    """``HoodWalk.walk(root, with_tail)`` for ``hw`` (a :class:`HoodWalk`); ``byline_marked``
    the Python test of a class or id that is not plain ASCII."""
    cdef cetree._Element top_el = <cetree._Element?>root
    cdef cetree._Document doc = top_el._doc
    cdef xmlNode* top = top_el._c_node
    cdef xmlNode* c = top
    cdef xmlNode* nxt
    cdef list lines = hw.lines
    cdef list bylines = hw.bylines
    cdef dict marked = hw.marked
    cdef Py_ssize_t limit = hw.limit
    cdef bint unresolved = hw.resolve is None
    # (an <h2>/<h3> matters to HoodWalk.start only before the headline on a page without
    # <h1> whose titles are known; a link only after the headline, its href to an author page)
    cdef bint lower_headings = not hw.has_h1 and bool(hw.own)
    cdef int kind
    cdef bint hand
    cdef const char* name
    if not is_element(top):
        raise TypeError("the neighbourhood's walk starts at an element")
    while True:
        # the start of c
        kind = _kind(c)
        if kind != SKIP:
            if kind == HEADING:
                name = <const char*>c.name
                hand = name[1] == b'1' or (lower_headings and hw.at < 0)
            elif kind == LINK:
                hand = _may_be_author_page(c) and hw.at >= 0
            else:
                hand = False
            if hand:
                el = cetree.elementFactory(doc, c)
                hw.start(el, (<const char*>c.name).decode("utf-8"), None)
                limit = hw.limit
                if _marked(c, marked, byline_marked):
                    PyList_Append(bylines, (len(lines), el))
            elif c.properties is not NULL and _marked(c, marked, byline_marked):
                PyList_Append(bylines, (len(lines), cetree.elementFactory(doc, c)))
            text = _line(c.children)
            if text is not None:
                PyList_Append(lines, text)
                if len(lines) > limit:
                    hw.open = False
                    return
            nxt = _first_element(c.children)
            if nxt is not NULL:
                c = nxt
                continue
        # the end of c, and of each ancestor whose last element c closes
        while True:
            if c is not top or with_tail:
                text = _line(c.next)
                if text is not None:
                    PyList_Append(lines, text)
                    if len(lines) > limit:
                        hw.open = False
                        return
            if c is top:
                return
            nxt = _first_element(c.next)
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent


cdef bint _author_token(const unsigned char* s) noexcept nogil:
    """``"author" in s.lower().split()`` for a plain-ASCII ``s``."""
    return _token(s, "author")


cdef bint _token(const unsigned char* s, const char* word) noexcept nogil:
    """``word in s.lower().split()`` for a plain-ASCII ``s`` (``word``: lower-case ASCII)."""
    cdef Py_ssize_t i = 0
    cdef size_t n = strlen(word)
    while s[i] != 0:
        while s[i] != 0 and _ascii_space(s[i]):
            i += 1
        if s[i] == 0:
            return False
        if opens_with(s + i, word) and (s[i + n] == 0 or _ascii_space(s[i + n])):
            return True
        while s[i] != 0 and not _ascii_space(s[i]):
            i += 1
    return False


cdef bint _rel_author(xmlNode* c) except -1:
    """Whether the element's ``rel`` names ``author`` (``"author" in rel.lower().split()``)."""
    cdef xmlAttr* a = find_attribute(c, "rel")
    cdef const unsigned char* s
    cdef Py_ssize_t k = 0
    if a is NULL or a.children is NULL:
        return False
    if a.children.next is NULL and a.children.type == tree.XML_TEXT_NODE and a.children.content is not NULL:
        s = <const unsigned char*>a.children.content
        while s[k] != 0 and s[k] < 0x80:
            k += 1
        if s[k] == 0:
            return _author_token(s)
    value = cetree.attributeValue(c, a)
    return bool(value) and "author" in value.lower().split()


cdef inline xmlNode* _next_in_order(xmlNode* c, xmlNode* top) noexcept nogil:
    """The element after ``c`` in document order within ``top`` (elements only), or NULL."""
    cdef xmlNode* nxt = _first_element(c.children)
    if nxt is not NULL:
        return nxt
    while c is not top:
        nxt = _first_element(c.next)
        if nxt is not NULL:
            return nxt
        c = c.parent
    return NULL


def rel_author_links(object root):
    """The ``<a>`` elements of ``root`` (itself included, in document order) whose ``rel``
    names ``author``: ``[a for a in root.iter("a") if a.get("rel") and "author" in
    a.get("rel").lower().split()]`` with no proxy made for the other links."""
    cdef cetree._Element top_el = <cetree._Element?>root
    cdef cetree._Document doc = top_el._doc
    cdef xmlNode* top = top_el._c_node
    cdef xmlNode* c = top
    cdef list out = []
    if not is_element(top):
        return out
    while c is not NULL:
        if _kind(c) == LINK and _rel_author(c):
            out.append(cetree.elementFactory(doc, c))
        c = _next_in_order(c, top)
    return out


#: the tags :func:`fact_elements` finds first (``facts._TAGS``: checked where it is imported)
FACT_TAGS = ("meta", "script", "link", "title", "h1")


cdef inline bint _fact_tag(const char* name) noexcept nogil:
    return (streq(name, "meta") or streq(name, "script") or streq(name, "link") or streq(name, "title")
            or streq(name, "h1"))


cdef const unsigned char* _plain(xmlAttr* a) noexcept nogil:
    """The value of an attribute that is one plain-ASCII text node, else NULL (an empty
    value has no node: NULL too)."""
    cdef const unsigned char* s
    cdef Py_ssize_t k = 0
    if a is NULL or a.children is NULL or a.children.next is not NULL or a.children.type != tree.XML_TEXT_NODE:
        return NULL
    s = <const unsigned char*>a.children.content
    if s is NULL:
        return NULL
    while s[k] != 0:
        if s[k] >= 0x80:
            return NULL
        k += 1
    return s


cdef bint _is_ld_json(const unsigned char* s) noexcept nogil:
    """``s.strip().lower() == "application/ld+json"`` for a plain-ASCII ``s``."""
    cdef Py_ssize_t i = 0, k
    while s[i] != 0 and _ascii_space(s[i]):
        i += 1
    if not opens_with(s + i, "application/ld+json"):
        return False
    k = i + 19
    while s[k] != 0 and _ascii_space(s[k]):
        k += 1
    return s[k] == 0


cdef bint _may_be_read(xmlNode* c, const char* name) noexcept nogil:
    """Whether ``facts._read`` may take something from a fact element other than ``<meta>``
    (False only where it certainly takes nothing: a ``<script>`` whose plain-ASCII ``type`` is not JSON-LD or
    that has none, a ``<link>`` whose plain-ASCII ``rel`` does not name ``canonical`` or that
    has none)."""
    cdef xmlAttr* a
    cdef const unsigned char* s
    if name[0] == b's':  # script
        a = find_attribute(c, "type")
        if a is NULL or a.children is NULL:
            return False
        s = _plain(a)
        return s is NULL or _is_ld_json(s)
    if name[0] == b'l':  # link
        a = find_attribute(c, "rel")
        if a is NULL or a.children is NULL:
            return False
        s = _plain(a)
        return s is NULL or _token(s, "canonical")
    return True


cdef bint _opens_bold(xmlNode* c) noexcept nogil:
    """Whether a ``<p>``'s first child as lxml counts them (``p[0]``: an element, comment,
    processing instruction or entity reference) is a ``<strong>`` or ``<b>`` in no namespace."""
    c = c.children
    while c is not NULL and not (c.type == tree.XML_ELEMENT_NODE or c.type == tree.XML_COMMENT_NODE
                                 or c.type == tree.XML_PI_NODE or c.type == tree.XML_ENTITY_REF_NODE):
        c = c.next
    return (c is not NULL and is_element(c) and not namespaced(c) and c.name is not NULL
            and (streq(<const char*>c.name, "strong") or streq(<const char*>c.name, "b")))


cdef object _meta_entry(xmlNode* c, cetree._Document doc):
    """What ``facts._read`` takes from a ``<meta>``: ``(content, names)``, its ``content`` value
    and, in attribute order, the non-empty values of its ``property``, ``name``, ``itemprop``
    and ``http-equiv`` attributes (``el.items()``' keys of ``facts._META_KEYS``); None where it
    takes nothing (no ``content``, no name); the element itself where an attribute is in a
    namespace (read from it)."""
    cdef xmlAttr* a = c.properties
    cdef xmlAttr* content = NULL
    cdef const char* n
    cdef list names = []
    while a is not NULL:
        if a.ns is not NULL:
            return cetree.elementFactory(doc, c)
        n = <const char*>a.name
        if n is not NULL:
            if streq(n, "content"):
                if content is NULL:
                    content = a  # (the first, as el.get gives)
            elif streq(n, "property") or streq(n, "name") or streq(n, "itemprop") or streq(n, "http-equiv"):
                value = cetree.attributeValue(c, a)
                if value:
                    names.append(value)
        a = a.next
    if content is NULL or not names:
        return None
    return cetree.attributeValue(c, content), names


#: the ``<meta>`` attributes whose values :func:`_meta_entry` gives as names (``facts._META_KEYS``)
META_KEYS = frozenset(("property", "name", "itemprop", "http-equiv"))

#: what :func:`fact_elements` gives: version 2 adds the ``itemprop`` elements, whether there
#: is a ``<dt>`` and whether a ``<p>`` opens with a bold element (checked by ``facts``, which
#: reads a build of version 1 the slower way)
FACT_PASS = 2


def fact_elements(object root):
    """In one pass over ``root`` (itself included, in document order): the elements of
    :data:`FACT_TAGS` (``list(root.iter(*FACT_TAGS))``) but those ``facts._read`` would take
    nothing from (:func:`_may_be_read`), each ``<meta>`` as what it takes from it
    (:func:`_meta_entry`: no proxy made), the ``<time>`` elements
    (``list(root.iter("time"))``), the links :func:`rel_author_links` finds, and the
    elements with an ``itemprop`` attribute in no namespace, in any namespace themselves
    (``root.xpath("descendant-or-self::*[@itemprop]")``), whether an element is named
    ``dt`` in any namespace (``post_headers`` finds none where there is none), and whether
    a ``<p>`` opens with a ``<strong>`` or ``<b>`` (:func:`_opens_bold`; a bold line of
    names, ``people.bold_names_opening``, is in none where none does)."""
    cdef cetree._Element top_el = <cetree._Element?>root
    cdef cetree._Document doc = top_el._doc
    cdef xmlNode* top = top_el._c_node
    cdef xmlNode* c = top
    cdef const char* name
    cdef list facts = [], times = [], links = [], items = []
    cdef bint dt = False, bold = False
    if not is_element(top):
        return facts, times, links, items, dt, bold
    while c is not NULL:
        if c.properties is not NULL and find_attribute(c, "itemprop") is not NULL:
            items.append(cetree.elementFactory(doc, c))
        if not dt and c.name is not NULL and streq(<const char*>c.name, "dt"):
            dt = True
        if not namespaced(c):
            name = <const char*>c.name
            if name is not NULL:
                if name[0] == b'a' and name[1] == 0:
                    if _rel_author(c):
                        links.append(cetree.elementFactory(doc, c))
                elif name[0] == b'm' and streq(name, "meta"):
                    entry = _meta_entry(c, doc)
                    if entry is not None:
                        facts.append(entry)
                elif _fact_tag(name):
                    if _may_be_read(c, name):
                        facts.append(cetree.elementFactory(doc, c))
                elif streq(name, "time"):
                    times.append(cetree.elementFactory(doc, c))
                elif not bold and name[0] == b'p' and name[1] == 0:
                    bold = _opens_bold(c)
        c = _next_in_order(c, top)
    return facts, times, links, items, dt, bold


cdef extern from "Python.h":
    int PyUnicode_READY(object o) except -1
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil

#: the spellings of ``itemprop`` :func:`text_marks` finds (``facts._ITEMPROP_SPELLINGS``)
ITEMPROP_SPELLINGS = ("itemprop", "itemProp", "ITEMPROP")
#: what :func:`text_marks` tells whether the text holds (``threads.post_headers``' test)
DT_HEADER = "<dt><"


ctypedef fused _unit:  # (a string's code units: Py_UCS1, Py_UCS2, Py_UCS4)
    unsigned char
    unsigned short
    unsigned int


cdef inline bint _units_at(const _unit* s, Py_ssize_t i, Py_ssize_t n, const char* word) noexcept nogil:
    cdef Py_ssize_t k = 0
    while word[k] != 0:
        if i + k >= n or <Py_UCS4>s[i + k] != <Py_UCS4><unsigned char>word[k]:
            return False
        k += 1
    return True


cdef bint _scan(const _unit* s, Py_ssize_t n, list ends) except -1:
    """:func:`text_marks` over one kind of string (its code units ``s``)."""
    cdef Py_ssize_t i = 0
    cdef Py_UCS4 ch
    cdef bint dt = False
    while i < n:
        ch = <Py_UCS4>s[i]
        if ch == 60:  # "<"
            if not dt and _units_at(s, i, n, "<dt><"):
                dt = True
        elif ch == 105:  # "i"
            if _units_at(s, i, n, "itemprop") or _units_at(s, i, n, "itemProp"):
                ends.append(i + 8)
                i += 8
                continue
        elif ch == 73:  # "I"
            if _units_at(s, i, n, "ITEMPROP"):
                ends.append(i + 8)
                i += 8
                continue
        i += 1
    return dt


def text_marks(str text):
    """In one scan of ``text``: the end of each occurrence of one of
    :data:`ITEMPROP_SPELLINGS` (in order), and whether :data:`DT_HEADER` is in it, as
    ``str.find`` and ``in`` find them (each spelling's occurrences cannot overlap, nor hold
    the start of another's or of ``<dt><``: the scan goes on after each)."""
    PyUnicode_READY(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text)
    cdef list ends = []
    cdef bint dt
    if kind == 1:
        dt = _scan(<const unsigned char*>data, n, ends)
    elif kind == 2:
        dt = _scan(<const unsigned short*>data, n, ends)
    else:
        dt = _scan(<const unsigned int*>data, n, ends)
    return ends, dt
