# cython: language_level=3, boundscheck=False, wraparound=False
"""Page typing's walk of the ``<body>`` in C, over libxml2's tree: the optional compiled
form of :func:`newsstemmer.pagetype.features.walk_python`, which stays the reference.

The Python walk goes through lxml's ``iterwalk``: two events and one element proxy per
node, ``el.tag``, ``el.get(...)``, ``el.text`` and ``el.tail`` as new strings.  Here the
tree is read as the structs lxml is built on, as ``metadata/_hoodwalk.pyx`` does, and
Python objects are made only for what the walk keeps: the text nodes with more than
white space, the class and id values that may name a role, the links' ``href``, and the
elements it hands to the headline neighbourhood's reading (``HoodWalk``) it feeds.  What
it visits is what ``iterwalk`` visits: elements only (comments and processing
instructions give no event, so their tails are not read either), each element's text and
tail as lxml joins them.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport realloc, free
from libc.string cimport strlen

from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode, xmlAttr
cimport lxml.includes.etreepublic as cetree

from newsstemmer._libxml_nodes cimport (WordTable, ascii_lower, byline_words, fill_word_table, find_attribute,
                                        holds_word, opens_with, streq, text_or_skip)

cetree.import_lxml__etree()

#: the tags of each action (checked against ``features``' own where it is imported: a
#: difference means the Python walk is used)
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "select", "option"})
COUNTED_TAGS = ("form", "input", "textarea", "button", "img", "table", "pre", "code", "article", "time")
HEAD_TAGS = frozenset({"h2", "h3", "h4", "h5"})
BOILER_TAGS = frozenset({"nav", "footer", "aside", "header"})
#: what the neighbourhood's own walk passes over (``neighbourhood.SKIP_TAGS``)
HOOD_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "svg"})
#: the words :func:`_role_words` looks for: those of ``features._ROLE`` (a class or id
#: without any of them, in any case, names no role)
ROLE_WORDS = ("comment", "share", "sharing", "social", "author", "byline", "pagination", "pager", "breadcrumb",
              "card", "teaser", "tile", "post-item", "entry-title", "product", "price", "cart", "forum", "thread",
              "reply", "replies", "sidebar", "related", "article-body", "post-body", "entry-content", "story-body",
              "article__body", "content-body")
#: the headings the neighbourhood's reading is handed (``features._HEADLINE_TAGS``)
HEADLINE_TAGS = frozenset({"h1", "h2", "h3"})
#: ``neighbourhood.BYLINE_MARK``'s pattern (case-insensitive), whose words ``byline_words`` (``_libxml_nodes.pxd``) looks for
MARK_PATTERN = "byline|author|user-?name|postuser"
#: ``neighbourhood.AUTHOR_PAGE``'s pattern: a link's ``href`` is handed on only where it
#: holds one of the words of :data:`AUTHOR_WORDS` in any case (or is not plain ASCII)
AUTHOR_PAGE = (r"/(?:authors?|autor(?:es|en|i|e)?|auteurs?|writers?|journalists?|reporters?|forfatter|"
               r"skribent)/[^/?#]|[?&]author=")
AUTHOR_WORDS = ("author", "autor", "auteur", "writer", "journalist", "reporter", "forfatter", "skribent")

# (the actions' numbers are those of features._ACTS)
cdef enum:
    PLAIN = 0
    SKIPPED = 1
    COUNTED = 2
    LINK = 3
    PARA = 4
    HEAD = 5
    ITEM = 6
    BOILER = 7

cdef enum:
    N_COUNTED = 10


cdef inline bint _walked(xmlNode* c) noexcept nogil:
    """Whether ``iterwalk`` gives ``c`` an event: elements only (lxml 6 gives comments,
    processing instructions and entity references none: their tails are not read)."""
    return c.type == tree.XML_ELEMENT_NODE


cdef inline xmlNode* _first_walked(xmlNode* c) noexcept nogil:
    while c is not NULL and not _walked(c):
        c = c.next
    return c


cdef int _act(xmlNode* c, int* counted) noexcept nogil:
    """The walk's action at ``c`` (``features._ACTS``; a namespaced tag, ``{href}name``, is
    plain; a node that is no element is passed over); ``counted`` set to the index of a
    counted tag in :data:`COUNTED_TAGS`."""
    if c.type != tree.XML_ELEMENT_NODE:
        return SKIPPED
    if c.ns is not NULL and c.ns.href is not NULL:
        return PLAIN
    cdef const char* n = <const char*>c.name
    if n is NULL:
        return PLAIN
    cdef char h = n[0]
    if n[1] == 0:
        if h == b'a':
            return LINK
        if h == b'p':
            return PARA
        return PLAIN
    if h == b'h':
        if n[2] == 0 and b'2' <= n[1] <= b'5':
            return HEAD
        if streq(n, "header"):
            return BOILER
        if streq(n, "head"):
            return SKIPPED
        return PLAIN
    if h == b'l':
        return ITEM if streq(n, "li") else PLAIN
    if streq(n, "div") or streq(n, "span"):
        return PLAIN
    if streq(n, "nav") or streq(n, "footer") or streq(n, "aside"):
        return BOILER
    if (streq(n, "script") or streq(n, "style") or streq(n, "noscript") or streq(n, "template")
            or streq(n, "svg") or streq(n, "iframe") or streq(n, "select") or streq(n, "option")):
        return SKIPPED
    cdef int i = _counted_index(n)
    if i >= 0:
        counted[0] = i
        return COUNTED
    return PLAIN


cdef int _counted_index(const char* n) noexcept nogil:
    """The index of the tag ``n`` in :data:`COUNTED_TAGS`, -1 if it is not there."""
    if streq(n, "form"):
        return 0
    if streq(n, "input"):
        return 1
    if streq(n, "textarea"):
        return 2
    if streq(n, "button"):
        return 3
    if streq(n, "img"):
        return 4
    if streq(n, "table"):
        return 5
    if streq(n, "pre"):
        return 6
    if streq(n, "code"):
        return 7
    if streq(n, "article"):
        return 8
    if streq(n, "time"):
        return 9
    return -1


cdef inline bint _headline_tag(xmlNode* c) noexcept nogil:
    """Whether ``c`` is an ``<h1>``, ``<h2>`` or ``<h3>`` (``features._HEADLINE_TAGS``)."""
    if c.type != tree.XML_ELEMENT_NODE or (c.ns is not NULL and c.ns.href is not NULL) or c.name is NULL:
        return False
    cdef const char* n = <const char*>c.name
    return n[0] == b'h' and b'1' <= n[1] <= b'3' and n[2] == 0


cdef inline bint _hood_skipped(xmlNode* c) noexcept nogil:
    """Whether the neighbourhood's walk passes over the element ``c`` (:data:`HOOD_SKIP_TAGS`)."""
    if (c.ns is not NULL and c.ns.href is not NULL) or c.name is NULL:
        return False
    cdef const char* n = <const char*>c.name
    return (streq(n, "script") or streq(n, "style") or streq(n, "noscript") or streq(n, "template")
            or streq(n, "svg"))


cdef inline bint _ascii_space(unsigned char b) noexcept nogil:
    # (what str.strip() strips among ASCII: \t \n \v \f \r, \x1c-\x1f and the space)
    return b == 32 or (9 <= b <= 13) or (28 <= b <= 31)


cdef object _text_run(xmlNode* first):
    """The text run from ``first`` (``el.text`` or ``el.tail``, as lxml joins it), None
    where it is missing or ASCII white space alone (no string made for it)."""
    cdef xmlNode* c = text_or_skip(first)
    cdef const unsigned char* s
    cdef Py_ssize_t k
    cdef xmlNode* run = c
    cdef bint worth = False
    while c is not NULL and not worth:
        s = <const unsigned char*>c.content
        if s is not NULL:
            k = 0
            while s[k] != 0:
                if s[k] >= 0x80 or not _ascii_space(s[k]):
                    worth = True
                    break
                k += 1
        c = text_or_skip(c.next)
    if not worth:
        return None
    if text_or_skip(run.next) is NULL:
        return PyUnicode_DecodeUTF8(<const char*>run.content, strlen(<const char*>run.content), NULL)
    joined = b""
    c = run
    while c is not NULL:
        if c.content is not NULL:
            joined += <bytes>(<const char*>c.content)
        c = text_or_skip(c.next)
    return joined.decode("utf-8")


cdef object _value(xmlNode* c, xmlAttr* a):
    """``el.get(name)`` of the attribute ``a`` (not NULL): its value, ``""`` for an empty one."""
    if a.children is NULL:
        return ""
    if a.children.next is NULL and a.children.type == tree.XML_TEXT_NODE and a.children.content is not NULL:
        return (<bytes>(<const char*>a.children.content)).decode("utf-8")
    return cetree.attributeValue(c, a)


cdef bint _plain(xmlAttr* a) noexcept nogil:
    """Whether the attribute's value is one plain-ASCII text node (or empty)."""
    if a is NULL or a.children is NULL:
        return True
    if a.children.next is not NULL or a.children.type != tree.XML_TEXT_NODE or a.children.content is NULL:
        return False
    cdef const unsigned char* s = <const unsigned char*>a.children.content
    cdef Py_ssize_t k = 0
    while s[k] != 0:
        if s[k] >= 0x80:
            return False
        k += 1
    return True


cdef bint _role_words(xmlAttr* a) noexcept nogil:
    """Whether a plain-ASCII value (:func:`_plain`) holds one of :data:`ROLE_WORDS` in any case."""
    if a is NULL or a.children is NULL:
        return False
    cdef const unsigned char* s = <const unsigned char*>a.children.content
    cdef Py_ssize_t i = 0
    cdef unsigned char ch
    while s[i] != 0:
        ch = ascii_lower(s[i])
        if ch == b'c':
            if opens_with(s + i, "comment") or opens_with(s + i, "card") or opens_with(s + i, "cart") or opens_with(s + i, "content-body"):
                return True
        elif ch == b's':
            if (opens_with(s + i, "share") or opens_with(s + i, "sharing") or opens_with(s + i, "social") or opens_with(s + i, "sidebar")
                    or opens_with(s + i, "story-body")):
                return True
        elif ch == b'a':
            if opens_with(s + i, "author") or opens_with(s + i, "article-body") or opens_with(s + i, "article__body"):
                return True
        elif ch == b'b':
            if opens_with(s + i, "byline") or opens_with(s + i, "breadcrumb"):
                return True
        elif ch == b'p':
            if (opens_with(s + i, "pagination") or opens_with(s + i, "pager") or opens_with(s + i, "post-item") or opens_with(s + i, "product")
                    or opens_with(s + i, "price") or opens_with(s + i, "post-body")):
                return True
        elif ch == b't':
            if opens_with(s + i, "teaser") or opens_with(s + i, "tile") or opens_with(s + i, "thread"):
                return True
        elif ch == b'e':
            if opens_with(s + i, "entry-title") or opens_with(s + i, "entry-content"):
                return True
        elif ch == b'f':
            if opens_with(s + i, "forum"):
                return True
        elif ch == b'r':
            if opens_with(s + i, "reply") or opens_with(s + i, "replies") or opens_with(s + i, "related"):
                return True
        i += 1
    return False


# :data:`AUTHOR_WORDS` as the C test reads them, set from the tuple at import (so the two
# cannot differ; the bytes kept alive here)
cdef WordTable _author_table
cdef tuple _author_bytes = fill_word_table(&_author_table, AUTHOR_WORDS)


cdef bint _may_be_author_page(xmlAttr* href) noexcept nogil:
    """Whether a link's ``href`` may match ``AUTHOR_PAGE`` (False: none, empty, or plain
    ASCII without any of :data:`AUTHOR_WORDS`)."""
    if href is NULL or href.children is NULL:
        return False
    if not _plain(href):
        return True
    return holds_word(<const unsigned char*>href.children.content, &_author_table)


cdef struct _Stack:
    Py_ssize_t* items
    Py_ssize_t size
    Py_ssize_t room


cdef int _push(_Stack* st, Py_ssize_t value) except -1:
    cdef Py_ssize_t* grown
    if st.size == st.room:
        st.room = st.room * 2 if st.room else 64
        grown = <Py_ssize_t*>realloc(st.items, st.room * sizeof(Py_ssize_t))
        if grown is NULL:
            raise MemoryError()
        st.items = grown
    st.items[st.size] = value
    st.size += 1
    return 0


cdef inline object _parent_key(xmlNode* c):
    """``el.getparent()`` as a key (the node's address), None where it has no parent element."""
    cdef xmlNode* p = c.parent
    if p is NULL or not _walked(p):
        return None
    return <size_t>p


def walk(object root, object hood, object short_link, dict short_links, object roles_of, dict role_cache,
         object byline_marked):
    """``features.walk_python(root, hood)``: the body's counts, and ``hood`` (a ``HoodWalk``
    or None) fed as that walk feeds it.  ``short_link``, ``roles_of`` and ``byline_marked``
    are the Python functions of those names, ``short_links`` and ``role_cache`` the caches
    of the first two."""
    cdef Py_ssize_t text = 0, links = 0, para_text = 0, boiler = 0
    cdef Py_ssize_t headline_links = 0, headline_chars = 0, read_more = 0, forum_links = 0
    cdef Py_ssize_t heads = 0, linked_heads = 0, lis = 0, li_links = 0, repeated = 0, tel = 0, mail = 0
    cdef Py_ssize_t in_link = 0, in_boiler = 0, link_start = 0, n, start_at
    cdef Py_ssize_t counted[N_COUNTED]
    cdef int which = 0, act, i
    cdef list paras = [], pieces = [], link_parts = []
    cdef dict runs = {}, own = {}, hrefs = {}
    cdef dict roles = {}
    cdef _Stack open_p, open_li, open_head
    cdef bint reading = hood is not None
    cdef list hood_lines = None, hood_bylines = None
    cdef dict marked = None
    cdef Py_ssize_t hood_limit = 0
    cdef cetree._Element top_el
    cdef cetree._Document doc
    cdef xmlNode* top
    cdef xmlNode* c
    cdef xmlNode* nxt
    cdef xmlAttr* cls_a
    cdef xmlAttr* id_a
    cdef xmlAttr* href_a
    cdef bint named, hand
    for i in range(N_COUNTED):
        counted[i] = 0
    open_p.items = open_li.items = open_head.items = NULL
    open_p.size = open_li.size = open_head.size = 0
    open_p.room = open_li.room = open_head.room = 0
    if reading:
        hood_lines, hood_bylines, marked = hood.lines, hood.bylines, hood.marked
        hood_limit = hood.limit
    try:
        if root is not None:
            top_el = <cetree._Element?>root
            doc = top_el._doc
            top = top_el._c_node
            c = top
            while True:
                # the start of c
                act = _act(c, &which)
                if act == SKIPPED:
                    if reading and c.type == tree.XML_ELEMENT_NODE and not _hood_skipped(c):
                        hood.walk(cetree.elementFactory(doc, c), with_tail=False)  # (an <iframe>'s text)
                        reading, hood_limit = hood.open, hood.limit
                else:
                    cls_a = find_attribute(c, "class") if c.properties is not NULL else NULL
                    id_a = find_attribute(c, "id") if c.properties is not NULL else NULL
                    named = _nonempty(c, cls_a) or _nonempty(c, id_a)  # (``cls or ident``)
                    if reading:  # (HoodWalk.start where it does more than note a byline mark)
                        hand = _headline_tag(c)
                        if not hand and act == LINK:
                            hand = hood.at >= 0 and _may_be_author_page(find_attribute(c, "href"))
                        if hand:
                            hood.start(cetree.elementFactory(doc, c), (<bytes>c.name).decode("utf-8"),
                                       _marks(c, cls_a, id_a))
                            hood_limit = hood.limit
                        elif named and _byline(c, cls_a, id_a, marked, byline_marked):
                            hood_bylines.append((len(hood_lines), cetree.elementFactory(doc, c)))
                    if named and (not _plain(cls_a) or not _plain(id_a) or _role_words(cls_a) or _role_words(id_a)):
                        cls = _value(c, cls_a) if cls_a is not NULL else None
                        ident = _value(c, id_a) if id_a is not NULL else None
                        names = f"{cls or ''} {ident}" if ident else cls
                        found = role_cache.get(names)
                        if found is None:
                            found = roles_of(names)
                        for group in found:
                            roles[group] = roles.get(group, 0) + 1
                    if act == LINK:
                        if not in_link:
                            link_start = text
                            link_parts = []
                        in_link += 1
                        href_a = find_attribute(c, "href") if c.properties is not NULL else NULL
                        if href_a is not NULL and href_a.children is not NULL:
                            href = _value(c, href_a)
                            if href:
                                seen = hrefs.get(href, 0)
                                hrefs[href] = seen + 1
                                if seen == 1:
                                    repeated += 1
                                elif seen == 0:
                                    if href.startswith("tel:"):
                                        tel += 1
                                    elif href.startswith("mailto:"):
                                        mail += 1
                        if open_li.size:
                            open_li.items[open_li.size - 1] = 1
                        if open_head.size:
                            open_head.items[open_head.size - 1] = 1
                    elif act == COUNTED:
                        counted[which] += 1
                    elif act == PARA:
                        _push(&open_p, text)
                    elif act == ITEM:
                        lis += 1
                        _push(&open_li, 0)
                    elif act == HEAD:
                        heads += 1
                        _push(&open_head, 1 if in_link else 0)
                    elif act == BOILER:
                        in_boiler += 1
                    s = _text_run(c.children)
                    stripped = s.strip() if s is not None else None
                    if stripped:
                        if reading:
                            hood_lines.append(s)
                            if len(hood_lines) > hood_limit:
                                reading = False
                                hood.open = False
                        s = stripped
                        n = len(s)
                        text += n
                        pieces.append(s)
                        if in_link:
                            links += n
                            link_parts.append(s)
                        else:
                            key = <size_t>c
                            own[key] = own.get(key, 0) + n
                        if in_boiler:
                            boiler += n
                    nxt = _first_walked(c.children)
                    if nxt is not NULL:
                        c = nxt
                        continue
                # the end of c, and of each ancestor whose last node c closes
                while True:
                    act = _act(c, &which)
                    if act == LINK:
                        if in_link:
                            in_link -= 1
                            if not in_link:
                                n = text - link_start
                                if n >= 25:
                                    headline_links += 1
                                    headline_chars += n
                                elif n:
                                    words = " ".join(link_parts)
                                    kind = short_links.get(words)
                                    if kind is None:
                                        kind = short_link(words)
                                    if kind == 1:
                                        read_more += 1
                                    elif kind == 2:
                                        forum_links += 1
                    elif act == PARA:
                        if open_p.size:
                            open_p.size -= 1
                            n = text - open_p.items[open_p.size]
                            paras.append(n)
                            para_text += n
                            if n >= 40:
                                key = _parent_key(c)
                                if key is not None:
                                    runs[key] = runs.get(key, 0) + n
                    elif act == ITEM:
                        if open_li.size:
                            open_li.size -= 1
                            if open_li.items[open_li.size]:
                                li_links += 1
                    elif act == HEAD:
                        if open_head.size:
                            open_head.size -= 1
                            if open_head.items[open_head.size]:
                                linked_heads += 1
                    elif act == BOILER:
                        if in_boiler:
                            in_boiler -= 1
                    s = _text_run(c.next)
                    stripped = s.strip() if s is not None else None
                    if stripped:
                        if reading:
                            hood_lines.append(s)
                            if len(hood_lines) > hood_limit:
                                reading = False
                                hood.open = False
                        s = stripped
                        n = len(s)
                        text += n
                        pieces.append(s)
                        if in_link:
                            links += n
                            link_parts.append(s)
                        else:
                            key = _parent_key(c)
                            if key is not None:
                                own[key] = own.get(key, 0) + n
                        if in_boiler:
                            boiler += n
                    if c is top:
                        break
                    nxt = _first_walked(c.next)
                    if nxt is not NULL:
                        c = nxt
                        break
                    c = c.parent
                if c is top:
                    break
    finally:
        free(open_p.items)
        free(open_li.items)
        free(open_head.items)
    return (text, links, para_text, boiler, paras, max(runs.values(), default=0), headline_links, headline_chars,
            read_more, forum_links, heads, linked_heads, lis, li_links, [counted[i] for i in range(N_COUNTED)],
            roles, repeated, tel, mail, list(own.values()), "\n".join(pieces))


cdef object _marks(xmlNode* c, xmlAttr* cls_a, xmlAttr* id_a):
    """``el.get("class") or el.get("id")``."""
    cls = _value(c, cls_a) if cls_a is not NULL else None
    if cls:
        return cls
    return _value(c, id_a) if id_a is not NULL else None


cdef bint _nonempty(xmlNode* c, xmlAttr* a) except -1:
    """Whether ``el.get(name)`` of the attribute ``a`` (NULL: none) is a non-empty string."""
    if a is NULL or a.children is NULL:
        return False
    if a.children.next is NULL and a.children.type == tree.XML_TEXT_NODE and a.children.content is not NULL:
        return a.children.content[0] != 0
    return bool(_value(c, a))


cdef bint _byline(xmlNode* c, xmlAttr* cls_a, xmlAttr* id_a, dict marked, object byline_marked) except -1:
    """``byline_marked(el.get("class") or el.get("id"))`` for an element that has one of the
    two, with no string made for a plain-ASCII value."""
    cdef xmlAttr* a = cls_a if _nonempty(c, cls_a) else id_a
    if _plain(a):
        return byline_words(<const unsigned char*>a.children.content)
    value = _value(c, a)
    found = marked.get(value)
    if found is None:
        found = byline_marked(value)
    return bool(found)
