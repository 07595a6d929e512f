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
