# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""DOM PageRank's graph walk in C, over libxml2's tree (optional compiled form of
:func:`newsstemmer.single.domgraph.build_graph`).

The pure-Python walk goes through lxml's ``iterwalk``: one Python event, one element proxy,
``el.tag``, ``el.keys()``, ``el.text`` and ``el.tail`` per node, and a ``re`` scan per text.
Here the tree is read as the plain structs lxml is built on (``children``, ``next``,
``content``, ``properties``: no libxml2 call, so nothing to link against; the node helpers it
shares with ``metadata/_hoodwalk`` are in ``newsstemmer/_libxml_nodes.pxd``), with an explicit
stack (any depth). Python is called only where the reference does rare or intricate work:
an element's role when it carries one of the role attributes (``element_role``, memoised
there), a comment-named element's shape, an image's ``media_ok``, and the weight of a text
holding CJK characters or compared with ``dice`` (``weigh``). Other texts are weighed here:
word characters are ``[A-Za-z0-9_]`` (ASCII) or ``isalnum()`` and ``_`` on the lower-cased
code points (``re``'s ``\\w``), the words are looked up in the title's and description's
terms, and the arithmetic is the reference's, in the same order, so every float is the same.

It returns the graph's lists; ``domgraph`` adds the galleries (with :func:`gallery_of`, the
gallery check over the same tree) and builds the ``DomGraph``. The module also holds the
compiled forms of the steps after the walk that loop over every node in Python:
:func:`solve_tree`, :func:`subtree_sums`, :func:`density_sums`, and lists into numpy arrays
(:func:`fill_floats`, :func:`fill_ints`); each gives its Python reference's very values.
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_Occurred
from cpython.float cimport PyFloat_AS_DOUBLE, PyFloat_CheckExact
from cpython.long cimport PyLong_AsDouble, PyLong_CheckExact
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from lxml.includes cimport tree
from lxml.includes.tree cimport xmlNode, xmlAttr
cimport lxml.includes.etreepublic as cetree

from newsstemmer._libxml_nodes cimport find_attribute, is_element, namespaced, streq, text_or_skip

cetree.import_lxml__etree()

cdef enum:
    K_DROP = 1
    K_MEDIA = 2
    K_LINK = 4
    K_SIDE = 8
    K_PLAYER = 16
    R_HIDDEN = 1
    R_IN_COMMENTS = 2
    R_IN_SIDEBAR = 4


cdef inline bint _is_element_like(xmlNode* c) noexcept nogil:
    # lxml's _isElement: what iterwalk visits (elements, comments, entity references, PIs)
    return (c.type == tree.XML_ELEMENT_NODE or c.type == tree.XML_COMMENT_NODE
            or c.type == tree.XML_ENTITY_REF_NODE or c.type == tree.XML_PI_NODE)


cdef inline xmlNode* _next_element_like(xmlNode* c) noexcept nogil:
    while c is not NULL and not _is_element_like(c):
        c = c.next
    return c


cdef bint _has_role_attr(xmlNode* c) noexcept nogil:
    """Whether ``el.keys()`` holds one of ROLE_ATTRS (a namespaced name is ``{href}name``)."""
    cdef xmlAttr* a = c.properties
    cdef const char* name
    while a is not NULL:
        if a.ns is NULL or a.ns.href is NULL:
            name = <const char*>a.name
            if (streq(name, "class") or streq(name, "id") or streq(name, "style")
                    or streq(name, "hidden") or streq(name, "aria-hidden")):
                return True
        a = a.next
    return False


cdef inline object _attr_value(xmlNode* c, const char* name):
    """``el.get(name)``: the first attribute of that name outside any namespace, or None."""
    cdef xmlAttr* a = find_attribute(c, name)
    return None if a is NULL else cetree.attributeValue(c, a)


cdef long _element_role(xmlNode* c, str tag, frozenset page_tags, dict role_memo,
                        object key_role) except -1:
    """``page_signals.element_role``: its memo key read from the tree, the memo looked up here."""
    key = (tag in page_tags, _attr_value(c, "class"), _attr_value(c, "id"), _attr_value(c, "style"),
           _attr_value(c, "hidden"), _attr_value(c, "aria-hidden"))
    role = role_memo.get(key)
    if role is None:
        role = key_role(key)
    return role


cdef bint _has_cjk(str text):
    """``page_signals._CJK.search(text) is not None`` (kana, CJK ideographs, Hangul)."""
    cdef Py_UCS4 ch
    for ch in text:
        if ((0x3040 <= ch <= 0x30ff) or (0x3400 <= ch <= 0x4dbf) or (0x4e00 <= ch <= 0x9fff)
                or (0xac00 <= ch <= 0xd7af) or (0xf900 <= ch <= 0xfaff)):
            return True
    return False


cdef struct Frame:
    Py_ssize_t node
    bint in_link
    double factor


cdef class _Builder:
    """The growing graph (C arrays) and the settings and Python helpers of one walk."""

    cdef Py_ssize_t n, cap
    cdef Py_ssize_t* parent
    cdef double* u
    cdef Py_ssize_t* chars
    cdef Py_ssize_t* link_chars
    cdef long* roles
    cdef Py_ssize_t* size
    cdef list elements
    # settings
    cdef bint title_weighted, capped, fast_sim
    cdef Py_ssize_t text_cap, title_len, desc_len
    cdef double beta, link_w
    # term look-up of ASCII words: term -> index; per index in title / in description, and
    # the last text that found it (distinct terms per text)
    cdef dict term_index
    cdef char* in_title
    cdef char* in_desc
    cdef Py_ssize_t* stamp
    cdef Py_ssize_t text_no, found_title, found_desc
    cdef object weigh
    cdef bytearray lowered

    def __cinit__(self):
        self.n = self.cap = 0
        self.parent = NULL
        self.u = NULL
        self.chars = self.link_chars = self.size = NULL
        self.roles = NULL
        self.in_title = self.in_desc = NULL
        self.stamp = NULL

    def __dealloc__(self):
        free(self.parent); free(self.u); free(self.chars); free(self.link_chars)
        free(self.roles); free(self.size); free(self.in_title); free(self.in_desc); free(self.stamp)

    cdef int grow(self) except -1:
        cdef Py_ssize_t cap = self.cap * 2 if self.cap else 1024
        cdef void* p
        p = realloc(self.parent, cap * sizeof(Py_ssize_t))
        if p is NULL: raise MemoryError()
        self.parent = <Py_ssize_t*>p
        p = realloc(self.u, cap * sizeof(double))
        if p is NULL: raise MemoryError()
        self.u = <double*>p
        p = realloc(self.chars, cap * sizeof(Py_ssize_t))
        if p is NULL: raise MemoryError()
        self.chars = <Py_ssize_t*>p
        p = realloc(self.link_chars, cap * sizeof(Py_ssize_t))
        if p is NULL: raise MemoryError()
        self.link_chars = <Py_ssize_t*>p
        p = realloc(self.roles, cap * sizeof(long))
        if p is NULL: raise MemoryError()
        self.roles = <long*>p
        p = realloc(self.size, cap * sizeof(Py_ssize_t))
        if p is NULL: raise MemoryError()
        self.size = <Py_ssize_t*>p
        self.cap = cap
        return 0

    cdef inline Py_ssize_t add(self, Py_ssize_t p, double w, Py_ssize_t n, Py_ssize_t ln,
                               long role, object el) except -1:
        if self.n == self.cap:
            self.grow()
        cdef Py_ssize_t i = self.n
        self.parent[i] = p
        self.u[i] = w
        self.chars[i] = n
        self.link_chars[i] = ln
        self.roles[i] = role
        self.size[i] = 1
        self.elements.append(el)
        self.n = i + 1
        return i

    cdef int text_node(self, xmlNode* first, Py_ssize_t p, bint in_link, double factor) except -1:
        """The text run starting at ``first`` (an element's text or tail), as a node of ``p``."""
        cdef xmlNode* c = text_or_skip(first)
        if c is NULL or p < 0:
            return 0
        cdef const unsigned char* s
        cdef Py_ssize_t length = 0, k, n = 0
        cdef xmlNode* d = c
        cdef int runs = 0
        cdef bytes joined
        cdef bint ascii = True
        cdef unsigned char ch
        cdef double w
        while d is not NULL:
            if d.content is not NULL:
                s = <const unsigned char*>d.content
                while s[0] != 0:
                    s += 1
                length += s - <const unsigned char*>d.content
            runs += 1
            d = text_or_skip(d.next)
        if length == 0:
            return 0
        if runs == 1:
            s = <const unsigned char*>c.content
        else:
            joined = PyBytes_FromStringAndSize(NULL, length)
            s = <const unsigned char*><char*>joined
            length = 0
            d = c
            while d is not NULL:
                if d.content is not NULL:
                    k = 0
                    while d.content[k] != 0:
                        k += 1
                    memcpy(<char*>s + length, d.content, k)
                    length += k
                d = text_or_skip(d.next)
        for k in range(length):
            ch = s[k]
            if ch >= 0x80:
                ascii = False
                break
            if (ch >= c'a' and ch <= c'z') or (ch >= c'A' and ch <= c'Z') or (ch >= c'0' and ch <= c'9') or ch == c'_':
                n += 1
        if ascii and self.fast_sim:
            if n == 0:
                return 0
            w = (<double>(n if n < self.text_cap else self.text_cap)) / <double>self.text_cap if self.capped else 1.0
            if self.title_weighted:
                w *= (1.0 - self.beta) + self.beta * self.ascii_similarity(s, length)
        elif self.fast_sim:
            text = PyUnicode_DecodeUTF8(<const char*>s, length, NULL)
            if self.title_weighted and _has_cjk(text):  # (terms() makes bigrams of CJK runs)
                n, w = self.weigh(text)
            else:
                n = self.unicode_words(text.lower())
                if n == 0:
                    return 0
                w = (<double>(n if n < self.text_cap else self.text_cap)) / <double>self.text_cap if self.capped else 1.0
                if self.title_weighted:
                    w *= (1.0 - self.beta) + self.beta * self.similarity_of_last()
            if n == 0:
                return 0
        else:
            n, w = self.weigh(PyUnicode_DecodeUTF8(<const char*>s, length, NULL))
            if n == 0:
                return 0
        w *= factor
        if in_link:
            w *= self.link_w
            self.add(p, w, n, n, 0, None)
        else:
            self.add(p, w, n, 0, 0, None)
        return 0

    cdef double ascii_similarity(self, const unsigned char* s, Py_ssize_t length) except? -1.0:
        """``cover`` likeness of an ASCII text: shares of the title's and the description's
        terms among its lower-cased ``\\w+`` words (distinct terms, as the reference's sets)."""
        if not self.term_index:
            return 0.0
        cdef Py_ssize_t k = 0, start, a = 0, b = 0, idx
        cdef unsigned char ch
        cdef char* low
        self.text_no += 1
        if len(self.lowered) < length:
            self.lowered = bytearray(length)
        low = <char*>self.lowered
        while k < length:
            ch = s[k]
            if not ((ch >= c'a' and ch <= c'z') or (ch >= c'A' and ch <= c'Z') or (ch >= c'0' and ch <= c'9') or ch == c'_'):
                k += 1
                continue
            start = k
            while k < length:
                ch = s[k]
                if ch >= c'A' and ch <= c'Z':
                    low[k] = ch + 32
                elif (ch >= c'a' and ch <= c'z') or (ch >= c'0' and ch <= c'9') or ch == c'_':
                    low[k] = ch
                else:
                    break
                k += 1
            found = self.term_index.get(low[start:k].decode("ascii"))
            if found is not None:
                idx = found
                if self.stamp[idx] != self.text_no:
                    self.stamp[idx] = self.text_no
                    a += self.in_title[idx]
                    b += self.in_desc[idx]
        if a == 0 and b == 0:
            return 0.0
        return ((<double>a / <double>self.title_len) if self.title_len else 0.0) + (
            (<double>b / <double>self.desc_len) if self.desc_len else 0.0)

    cdef Py_ssize_t unicode_words(self, str low) except -1:
        """Word characters of a lower-cased text (``\\w`` is ``isalnum()`` or ``_``, as ``re``'s),
        its distinct words looked up in the title's and description's terms (kept for
        :meth:`similarity_of_last`)."""
        cdef Py_ssize_t k = 0, start, n = 0, length = len(low), idx
        cdef Py_UCS4 ch
        cdef bint look = self.title_weighted and self.term_index
        self.text_no += 1
        self.found_title = self.found_desc = 0
        while k < length:
            ch = low[k]
            if not (ch == u'_' or ch.isalnum()):
                k += 1
                continue
            start = k
            k += 1
            while k < length:
                ch = low[k]
                if not (ch == u'_' or ch.isalnum()):
                    break
                k += 1
            n += k - start
            if look:
                found = self.term_index.get(low[start:k])
                if found is not None:
                    idx = found
                    if self.stamp[idx] != self.text_no:
                        self.stamp[idx] = self.text_no
                        self.found_title += self.in_title[idx]
                        self.found_desc += self.in_desc[idx]
        return n

    cdef double similarity_of_last(self):
        """``cover`` likeness of the text :meth:`unicode_words` read last (as :meth:`ascii_similarity`)."""
        if self.found_title == 0 and self.found_desc == 0:
            return 0.0
        return ((<double>self.found_title / <double>self.title_len) if self.title_len else 0.0) + (
            (<double>self.found_desc / <double>self.desc_len) if self.desc_len else 0.0)

    cdef list take_list_int(self, Py_ssize_t* values):
        cdef list out = [None] * self.n
        cdef Py_ssize_t i
        for i in range(self.n):
            out[i] = values[i]
        return out


#: The walk's ``images`` hold the players it leaves out too, as (their parent's node, the player).
PLAYERS_IN_IMAGES = True


def build_lists(body, dict kind_of, frozenset page_tags, dict role_memo, object key_role,
                object thread_shaped, object media_ok,
                object weigh, set title_terms, set desc_terms, bint title_weighted, bint cover,
                bint capped, Py_ssize_t text_cap, double beta, double link_w, double comment_w,
                double side_w, double media, Py_ssize_t min_size, bint skip_hidden, bint shape,
                bint galleries):
    """The graph of ``body`` as ``(parent, u, elements, chars, link_chars, roles, hidden, size,
    images)``: the lists :func:`domgraph.build_graph` makes, by the same rules (see there);
    ``images``: image nodes, and (parent node, element) of players (:data:`PLAYERS_IN_IMAGES`)."""
    cdef cetree._Element root = <cetree._Element?>body
    cdef cetree._Document doc = root._doc
    cdef xmlNode* top = root._c_node
    cdef _Builder g = _Builder()
    g.elements = []
    g.title_weighted = title_weighted
    g.capped = capped
    g.text_cap = text_cap
    g.beta = beta
    g.link_w = link_w
    g.weigh = weigh
    g.fast_sim = cover or not title_weighted
    g.title_len = len(title_terms)
    g.desc_len = len(desc_terms)
    g.lowered = bytearray(256)
    g.term_index = {}
    cdef Py_ssize_t t, nterms
    if title_weighted:
        for t, term in enumerate(title_terms | desc_terms):
            g.term_index[term] = t
        nterms = len(g.term_index)
        g.in_title = <char*>realloc(NULL, nterms + 1)
        g.in_desc = <char*>realloc(NULL, nterms + 1)
        g.stamp = <Py_ssize_t*>realloc(NULL, (nterms + 1) * sizeof(Py_ssize_t))
        if g.in_title is NULL or g.in_desc is NULL or g.stamp is NULL:
            raise MemoryError()
        for term, t in g.term_index.items():
            g.in_title[t] = term in title_terms
            g.in_desc[t] = term in desc_terms
            g.stamp[t] = 0
    cdef set hidden = set()
    cdef list images = []

    # the open elements (graph nodes), bottom: the sentinel "outside" (no node)
    cdef Frame* stack = NULL
    cdef Py_ssize_t depth = 0, stack_cap = 0
    cdef void* mem
    cdef Frame cur
    cur.node = -1
    cur.in_link = False
    cur.factor = 1.0

    cdef xmlNode* c = top
    cdef xmlNode* child
    cdef bint opened, descending = True
    cdef long role = 0
    cdef int kind
    cdef Py_ssize_t i
    cdef double w
    cdef cetree._Element el
    try:
        while True:
            if descending:
                opened = False
                role = 0
                if is_element(c):
                    el = cetree.elementFactory(doc, c)
                    if namespaced(c):
                        tag = el.tag
                    else:
                        tag = (<const char*>c.name).decode("utf-8")
                    kind = kind_of.get(tag, 0)
                    if kind & K_PLAYER and galleries and cur.node >= 0:  # (a slide's player, out of the graph)
                        images.append((cur.node, el))
                    if not kind & K_DROP:
                        role = _element_role(c, tag, page_tags, role_memo, key_role) if _has_role_attr(c) else 0
                        if role and role & R_HIDDEN and skip_hidden:
                            hidden.add(el)
                            kind = K_DROP
                        elif role & R_IN_COMMENTS and cur.factor != 0.0 and shape and not thread_shaped(el):
                            role &= ~R_IN_COMMENTS
                    if not kind & K_DROP:
                        w = 0.0
                        if kind & K_MEDIA:
                            if media != 0.0 and media_ok(el, min_size):
                                w = media
                        i = g.add(cur.node, w, 0, 0, role, el)
                        if kind & K_MEDIA and galleries:
                            images.append(i)
                        if depth == stack_cap:
                            stack_cap = stack_cap * 2 if stack_cap else 64
                            mem = realloc(stack, stack_cap * sizeof(Frame))
                            if mem is NULL:
                                raise MemoryError()
                            stack = <Frame*>mem
                        stack[depth] = cur
                        depth += 1
                        cur.node = i
                        if kind & K_LINK and not kind & K_MEDIA:
                            cur.in_link = True
                        if role & R_IN_COMMENTS:
                            cur.factor *= comment_w
                        elif role & R_IN_SIDEBAR or kind & K_SIDE:
                            cur.factor *= side_w
                        opened = True
                        g.text_node(c.children, cur.node, cur.in_link, cur.factor)
                        child = _next_element_like(c.children)
                        if child is not NULL:
                            c = child
                            continue
            # c closes (its subtree done, or passed over): its tail goes to its parent's node
            if opened:
                g.size[cur.node] = g.n - cur.node
                depth -= 1
                cur = stack[depth]
            g.text_node(c.next, cur.node, cur.in_link, cur.factor)
            if c is top:
                break
            child = _next_element_like(c.next)
            if child is not NULL:
                c = child
                descending = True
            else:
                c = c.parent
                descending = False
                opened = True
    finally:
        free(stack)
    return (g.take_list_int(g.parent), [g.u[i] for i in range(g.n)], g.elements,
            g.take_list_int(g.chars), g.take_list_int(g.link_chars),
            [g.roles[i] for i in range(g.n)], hidden, g.take_list_int(g.size), images)


# -- the solver and the sums over subtrees (compiled forms of domgraph's Python ones) -------------


cdef Py_ssize_t* _index_array(list values, Py_ssize_t n) except NULL:
    """``values`` (Python ints) as a C array of ``n`` (``malloc``'d: the caller frees it)."""
    cdef Py_ssize_t* out = <Py_ssize_t*>malloc((n if n else 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t i
    if out is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            out[i] = values[i]
    except BaseException:
        free(out)
        raise
    return out


cdef double* _float_array(list values, Py_ssize_t n) except NULL:
    """``values`` (numbers) as a C array of ``n`` doubles (``malloc``'d: the caller frees it)."""
    cdef double* out = <double*>malloc((n if n else 1) * sizeof(double))
    cdef Py_ssize_t i
    if out is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            out[i] = values[i]
    except BaseException:
        free(out)
        raise
    return out


cdef list _float_list(const double* values, Py_ssize_t n):
    cdef list out = [None] * n
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = values[i]
    return out


def solve_tree(list parent, list u, double alpha):
    """:func:`domgraph.solve_tree_python` in C: the same checks, and the same floating-point
    operations in the same order, so the same ``f``."""
    cdef Py_ssize_t n = len(parent), i, p
    if len(u) != n:
        raise ValueError("parent and u must have the same length")
    if alpha < 0:
        raise ValueError("alpha must be >= 0")
    cdef Py_ssize_t* par = _index_array(parent, n)
    cdef double* work = NULL
    cdef double* uu = NULL
    cdef Py_ssize_t* deg = NULL
    cdef double* sum_a
    cdef double* sum_b
    cdef double* a
    cdef double* b
    cdef double d, ai, bi
    try:
        uu = _float_array(u, n)
        work = <double*>malloc((4 * n + 1) * sizeof(double))
        deg = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        if work is NULL or deg is NULL:
            raise MemoryError()
        sum_a, sum_b, a, b = work, work + n, work + 2 * n, work + 3 * n
        for i in range(n):
            deg[i] = 0 if par[i] < 0 else 1
            sum_a[i] = sum_b[i] = 0.0
        for i in range(n):
            p = par[i]
            if p >= 0:
                if p >= i:
                    raise ValueError("parent[i] must be smaller than i")
                deg[p] += 1
        for i in range(n - 1, -1, -1):
            d = 1.0 + alpha * (<double>deg[i] - sum_b[i])
            ai = (uu[i] + alpha * sum_a[i]) / d
            bi = alpha / d
            a[i] = ai
            b[i] = bi
            p = par[i]
            if p >= 0:
                sum_a[p] += ai
                sum_b[p] += bi
        for i in range(n):
            p = par[i]
            if p >= 0:
                a[i] = a[i] + b[i] * a[p]
        return _float_list(a, n)
    finally:
        free(par); free(uu); free(work); free(deg)


def subtree_sums(list parent, list size, list chars, list link_chars, list u):
    """:func:`domgraph.subtree_sums_python` in C: per node the word characters, link characters,
    weight ``u`` (summed leaves up, last child first, as there) and node count of its subtree."""
    cdef Py_ssize_t n = len(parent), i, k
    if n == 0:
        return [], [], [], []
    cdef Py_ssize_t* par = _index_array(parent, n)
    cdef Py_ssize_t* sz = NULL
    cdef Py_ssize_t* ch = NULL
    cdef Py_ssize_t* ln = NULL
    cdef double* mass = NULL
    cdef long long* prefix = NULL
    cdef list total, links
    try:
        sz = _index_array(size, n)
        ch = _index_array(chars, n)
        ln = _index_array(link_chars, n)
        mass = _float_array(u, n)
        prefix = <long long*>malloc((n + 1) * sizeof(long long))
        if prefix is NULL:
            raise MemoryError()
        for i in range(n):
            if sz[i] < 1 or sz[i] > n - i:
                raise ValueError("size[i] must be 1 .. n - i")
        total = [None] * n
        links = [None] * n
        for k in range(2):
            prefix[0] = 0
            for i in range(n):
                prefix[i + 1] = prefix[i] + (ch[i] if k == 0 else ln[i])
            for i in range(n):
                (total if k == 0 else links)[i] = prefix[i + sz[i]] - prefix[i]
        for i in range(n - 1, 0, -1):
            mass[par[i]] += mass[i]
        return total, links, _float_list(mass, n), list(size)
    finally:
        free(par); free(sz); free(ch); free(ln); free(mass); free(prefix)


def density_sums(list parent, list f, list chars):
    """DensitySum ``g`` (each node's children's ``f``, added in node order) and the core (the
    first node of the largest ``g`` among those without characters): ``dom_pagerank``'s
    ``bincount`` and ``argmax``, in C."""
    cdef Py_ssize_t n = len(parent), i, p, core = 0
    if n == 0 or len(f) != n or len(chars) != n:
        raise ValueError("parent, f and chars must have the same length, at least 1")
    cdef Py_ssize_t* par = _index_array(parent, n)
    cdef double* ff = NULL
    cdef double* g = NULL
    cdef Py_ssize_t* ch = NULL
    cdef double best, x
    try:
        ff = _float_array(f, n)
        g = <double*>malloc((n if n else 1) * sizeof(double))
        if g is NULL:
            raise MemoryError()
        for i in range(n):
            g[i] = 0.0
        for i in range(1, n):
            p = par[i]
            if p < 0 or p >= n:
                raise ValueError("parent[i] must be a node")
            g[p] += ff[i]
        ch = _index_array(chars, n)
        best = -1.0 if ch[0] else g[0]
        for i in range(1, n):
            if best != best:  # (numpy's argmax: the first NaN)
                break
            x = -1.0 if ch[i] else g[i]
            if x > best or x != x:
                best = x
                core = i
        return _float_list(g, n), core
    finally:
        free(par); free(ff); free(g); free(ch)


# -- lists as arrays ----------------------------------------------------------------------------


def fill_floats(list values, double[::1] out):
    """``out[:] = values``: ``np.asarray(values, dtype=float64)`` without numpy's per-item
    type discovery (each item converted as ``float(item)``: the same double)."""
    cdef Py_ssize_t i, n = len(values)
    cdef object item
    cdef double x
    if out.shape[0] != n:
        raise ValueError("out must have the length of values")
    for i in range(n):
        item = values[i]
        if PyFloat_CheckExact(item):
            out[i] = PyFloat_AS_DOUBLE(item)
        elif PyLong_CheckExact(item):
            x = PyLong_AsDouble(item)  # (correctly rounded, as float(int))
            if x == -1.0 and PyErr_Occurred():
                raise OverflowError("int too large to convert to float")
            out[i] = x
        else:
            out[i] = float(item)
    return out.base


def fill_ints(list values, long long[::1] out):
    """``out[:] = values``: ``np.asarray(values, dtype=int64)``, item by item."""
    cdef Py_ssize_t i, n = len(values)
    if out.shape[0] != n:
        raise ValueError("out must have the length of values")
    for i in range(n):
        out[i] = values[i]
    return out.base


# -- galleries ----------------------------------------------------------------------------------


cdef inline bint _same_name(xmlNode* a, xmlNode* b) noexcept nogil:
    """Whether two elements have the same tag (``el.tag``: name and namespace)."""
    if not streq(<const char*>a.name, <const char*>b.name):
        return False
    if not namespaced(a):
        return not namespaced(b)
    return namespaced(b) and streq(<const char*>a.ns.href, <const char*>b.ns.href)


cdef inline bint _is_image(xmlNode* c) noexcept nogil:
    """``c.tag in page_signals._IMAGES`` (an element outside any namespace): images and players."""
    if not is_element(c) or namespaced(c):
        return False
    cdef const char* name = <const char*>c.name
    return (streq(name, "img") or streq(name, "picture") or streq(name, "video") or streq(name, "iframe")
            or streq(name, "embed") or streq(name, "object"))


cdef bint _holds_image(xmlNode* top) noexcept nogil:
    """``c.tag in _IMAGES or next(c.iter(*_IMAGES), None) is not None``."""
    cdef xmlNode* c = top
    while True:
        if _is_image(c):
            return True
        if is_element(c) and c.children is not NULL:
            c = c.children
            continue
        while c is not top and c.next is NULL:
            c = c.parent
        if c is top:
            return False
        c = c.next


cdef Py_ssize_t _text_chars(xmlNode* top) noexcept nogil:
    """``page_signals._chars("".join(top.itertext()))``: code points of the subtree's text
    (its own and its descendants' text and tails, not its own tail) that are not a space,
    newline or tab; -1 where an entity reference or XInclude marker is met (those the
    caller leaves to ``itertext``)."""
    cdef Py_ssize_t n = 0
    cdef const unsigned char* s
    cdef xmlNode* c = top.children
    if c is NULL:
        return 0
    while True:
        if c.type == tree.XML_TEXT_NODE or c.type == tree.XML_CDATA_SECTION_NODE:
            s = <const unsigned char*>c.content
            if s is not NULL:
                while s[0] != 0:
                    if (s[0] & 0xC0) != 0x80 and s[0] != c' ' and s[0] != c'\n' and s[0] != c'\t':
                        n += 1
                    s += 1
        elif (c.type == tree.XML_ENTITY_REF_NODE or c.type == tree.XML_XINCLUDE_START
              or c.type == tree.XML_XINCLUDE_END):
            return -1
        elif is_element(c) and c.children is not NULL:
            c = c.children
            continue
        while c.next is NULL:
            c = c.parent
            if c is top:
                return n
        c = c.next


cdef object _first_class_word(xmlNode* c):
    """``(c.get("class") or "").split()[:1]``."""
    value = _attr_value(c, "class")
    return (value or "").split()[:1]


cdef Py_ssize_t _itertext_chars(cetree._Document doc, xmlNode* c, object chars) except -2:
    cdef Py_ssize_t n = _text_chars(c)
    if n < 0:
        n = chars("".join(cetree.elementFactory(doc, c).itertext()))
    return n


cdef xmlNode* _gallery(cetree._Document doc, xmlNode* parent, xmlNode* item, object chars,
                       Py_ssize_t min_items, double media_share, double text_share) except <xmlNode*>1:
    """``page_signals._gallery(parent, _kind(item))`` over libxml2's tree: ``parent`` when it is one, else NULL."""
    cdef xmlNode* c
    cdef Py_ssize_t count = 0, same = 0, media = 0, inside = 0, total, k
    c = parent.children
    while c is not NULL:
        if _is_element_like(c):
            count += 1
        c = c.next
    if count < min_items:
        return NULL
    c = parent.children
    while c is not NULL:
        if is_element(c) and _same_name(c, item):
            same += 1
        c = c.next
    if same < min_items:
        return NULL
    first = _first_class_word(item)
    cdef list items = []
    c = parent.children
    while c is not NULL:
        if is_element(c) and _same_name(c, item) and _first_class_word(c) == first:
            items.append(<size_t>c)
        c = c.next
    if len(items) < min_items:
        return NULL
    for k in range(len(items)):
        if _holds_image(<xmlNode*><size_t>items[k]):
            media += 1
    if media < media_share * len(items):
        return NULL
    for k in range(len(items)):
        inside += _itertext_chars(doc, <xmlNode*><size_t>items[k], chars)
    total = _itertext_chars(doc, parent, chars)
    return parent if total and inside >= text_share * total else NULL


def gallery_of(img, dict seen, Py_ssize_t depth, Py_ssize_t min_items, double media_share,
               double text_share, object chars):
    """``page_signals.gallery_of(img, seen)`` over libxml2's tree (``seen``: one dict a page,
    keyed by node address; the constants passed from page_signals, ``chars`` its ``_chars``
    for the texts left to ``itertext``)."""
    cdef cetree._Element el = <cetree._Element?>img
    cdef cetree._Document doc = el._doc
    cdef xmlNode* item = el._c_node
    cdef xmlNode* parent
    cdef xmlNode* found
    cdef Py_ssize_t k
    for k in range(depth):
        parent = item.parent
        if parent is NULL or not _is_element_like(parent):
            return None
        verdict = seen.get(<size_t>parent, False)
        if verdict is False:
            found = _gallery(doc, parent, item, chars, min_items, media_share, text_share)
            verdict = None if found is NULL else cetree.elementFactory(doc, found)
            seen[<size_t>parent] = verdict
        if verdict is not None:
            return verdict
        item = parent
    return None


# -- the shape of a reader thread --------------------------------------------------------------


cdef Py_ssize_t _nonspace(const unsigned char* s) noexcept nogil:
    """``page_signals._chars`` of a UTF-8 text: code points other than a space, newline or tab."""
    cdef Py_ssize_t n = 0
    if s is NULL:
        return 0
    while s[0] != 0:
        if (s[0] & 0xC0) != 0x80 and s[0] != c' ' and s[0] != c'\n' and s[0] != c'\t':
            n += 1
        s += 1
    return n


cdef class _ThreadShape:
    """What ``page_signals.thread_shaped`` gathers over an element's subtree: the largest run
    of sibling paragraphs outside list items (``run``) and the largest list of items alike
    in size (``thread``); the constants are page_signals'."""
    cdef Py_ssize_t run, thread, body_paragraphs, thread_items
    cdef double item_share
    cdef frozenset not_items
    cdef object digits_sub

    cdef Py_ssize_t walk(self, xmlNode* d, bint in_li, cetree._Document doc) except -2:
        """Non-space characters of ``d``'s text (its own, its descendants' and their tails;
        ``size[d]`` of the Python form), the run and thread of ``d``'s children folded in;
        -1 where an entity reference is met (left to the Python form)."""
        cdef Py_ssize_t n = 0, k, paras = 0, count = 0, s, top
        cdef xmlNode* c = d.children
        cdef dict groups = None
        cdef list sizes
        in_li = in_li or (not namespaced(d) and streq(<const char*>d.name, "li"))
        while c is not NULL:
            if c.type == tree.XML_TEXT_NODE or c.type == tree.XML_CDATA_SECTION_NODE:
                n += _nonspace(<const unsigned char*>c.content)
            elif c.type == tree.XML_ENTITY_REF_NODE:
                return -1
            elif is_element(c):
                k = self.walk(c, in_li, doc)
                if k < 0:
                    return -1
                n += k
                if not namespaced(c) and streq(<const char*>c.name, "p"):
                    paras += k
                    count += 1
                elif k:
                    if namespaced(c):
                        tag = cetree.elementFactory(doc, c).tag
                    else:
                        tag = (<const char*>c.name).decode("utf-8")
                    if tag not in self.not_items:
                        key = (tag, self.digits_sub("", _attr_value(c, "class") or ""))
                        if groups is None:
                            groups = {}
                        sizes = groups.get(key)
                        if sizes is None:
                            groups[key] = [k]
                        else:
                            sizes.append(k)
            c = c.next
        if count >= self.body_paragraphs and paras > self.run and not in_li:
            self.run = paras
        if groups is not None:
            for sizes in groups.values():
                if len(sizes) >= self.thread_items:
                    s = top = 0
                    for v in sizes:
                        k = v
                        s += k
                        if k > top:
                            top = k
                    if top <= self.item_share * s and s > self.thread:
                        self.thread = s
        return n


def thread_shaped(el, Py_ssize_t body_paragraphs, double body_share, Py_ssize_t body_min_chars,
                  Py_ssize_t thread_items, double item_share, frozenset not_items, object digits_sub,
                  object python_form):
    """``page_signals.thread_shaped(el)`` over libxml2's tree (the constants passed from
    page_signals; ``python_form`` is called where an entity reference is met): the same verdict."""
    cdef cetree._Element e = <cetree._Element?>el
    cdef xmlNode* node = e._c_node
    cdef xmlNode* parent = node.parent
    cdef xmlNode* sib
    if parent is not NULL and _is_element_like(parent):
        kind = _first_class_word(node)
        sib = parent.children
        while sib is not NULL:
            if sib is not node and is_element(sib) and _same_name(sib, node) and _first_class_word(sib) == kind:
                return True
            sib = sib.next
    cdef _ThreadShape shape = _ThreadShape.__new__(_ThreadShape)
    shape.body_paragraphs = body_paragraphs
    shape.thread_items = thread_items
    shape.item_share = item_share
    shape.not_items = not_items
    shape.digits_sub = digits_sub
    cdef Py_ssize_t total = shape.walk(node, False, e._doc)
    if total < 0:
        return python_form(el)
    if not total:
        return True
    return not (shape.run >= body_share * total and shape.run >= body_min_chars and shape.run > shape.thread)
