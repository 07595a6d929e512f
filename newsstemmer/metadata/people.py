"""Author names as pages give them → a clean list of names.

Structured data gives names as strings, ``Person``/``Organization`` objects or lists of
them; ``<meta name=author>`` and bylines give one string with several names ("By Ann Lee
and Bo Kim", "Von Anna Berg und Jonas Ek").  URLs, e-mail addresses and empty or
implausibly long strings are not names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import unescape
from typing import Any, Callable

__all__ = ["FURNITURE", "bold_names_opening", "byline_line", "is_handle", "opens_with_by", "name_like", "plausible_name", "names_from_ld", "names_in_text", "split_names"]

#: a by-word glued to the name by the markup ("ByAnn Lee") is taken only for the by-words
#: that do not also open names, acronyms or brands ("DeAndre", "DiCaprio", "AFP", "DoorDash")
_BY = re.compile(r"^\s*(?:(?:written\s+by|posted\s+by|submitted\s+by|by|von|por|par)(?:\b|(?=(?-i:[A-Z])))"
                 r"|(?:door|av|di|de|af|da|fra)\b)[:\s]*", re.IGNORECASE)
#: a label before the name ("Author: Ann Lee", "Author Ann Lee", "AuthorAnn Lee" glued by the markup)
_LABEL = re.compile(r"^\s*(?:authors?|autor(?:in)?|auteur)(?:\s*:\s*|\s+|(?=(?-i:[A-Z])))(?=[^\W\d_])", re.IGNORECASE)
#: where a byline's names end in a line whose parts were glued together ("Ann LeeMarch 4",
#: "Ann LeeLast Updated"), or at a month abbreviation before a day ("Ann Lee Jul 3"; not
#: May, March, June, April or August: surnames too)
_GLUED_END = re.compile(r"(?<=[a-z])(?:(?:January|February|March|April|May|June|July|August|September|October|"
                        r"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Last|Updated|"
                        r"Published|Posted)\b|\s+(?:Jan|Feb|Apr|Jul|July|Sep|Sept|Oct|Nov|Dec|January|February|"
                        r"September|October|November|December)\.?\s*\d)")
_BY_INSIDE = re.compile(r"\s(?:by|von|por|par|door)\s+(?=[^\W\d_])", re.IGNORECASE)
_SPLIT = re.compile(r"\s*(?:[,;&|/·•»]|\s(?:and|und|y|e|et|og|och|en|ve|und)\s)\s*", re.IGNORECASE)
_NOT_NAME = re.compile(r"https?:|www\.|@|\.com\b|\d{3,}", re.IGNORECASE)
_ROLE_TAIL = re.compile(r"\s*[-–—|,]\s*(?:staff|senior|reporter|correspondent|editor|writer|contributor|"
                        r"redakteur|redaktion|journalist|columnist|(?:[^\W\d_]+\s+)?(?:editorial|team)|"
                        r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*(?:\d|$))\b.*$",
                        re.IGNORECASE)
#: words that end a byline's names without a separator ("Jane Doe Twitter", "Bo Kim Staff Writer")
_NOISE_TAIL = re.compile(r"(?:\s+(?:follow|folgen|twitter|facebook|email(?:\s+the\s+author)?|e-mail|linkedin|"
                         r"instagram|says|(?:[\w.]+\s+)?staff\s+writer|contributor|contributing\s+writer|"
                         r"is\s+an?\s+.+|is\s+the\s+.+|기자|記者))+$", re.IGNORECASE)
#: words of page furniture that bylines carry and that are never a name on their own
FURNITURE = frozenset("twitter facebook follow folgen community email share author authors".split())
#: the accounts a site posts under when no person signs ("Admin", "Editor"): names a page
#: may give, kept only where no source gives a person (:func:`is_handle`)
_ROLE_ACCOUNTS = frozenset("editor staff admin administrator anonymous guest redaktion".split())
_CALENDAR = frozenset(
    "mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday jan feb mar apr may jun "
    "jul aug sep sept oct nov dec january february march april june july august september october november december "
    "am pm updated published posted".split())
MAX_NAME_CHARS = 60
#: words that open a job title written after a name without a separator ("Ann Lee Writer",
#: "Bo Kim Content Marketing Coordinator", "Ann Lee Former McKinsey Consultant")
_JOB_WORDS = frozenset("writer editor author admin administrator moderator former senior head chief content marketing "
                       "director manager coordinator consultant founder co-founder ceo cto specialist strategist "
                       "reporter correspondent journalist columnist contributing contributor staff guest".split())


#: a news outlet after a name and a bar or slash: the writer's affiliation, not a second writer
_AFFILIATION = re.compile(r"\s*[|/]\s*(?:the\s+)?(?:[\w.-]+\s+){0,3}(?:news|press|times|media|agency|post|journal|"
                          r"herald|tribune|network|radio|tv|daily)\b[^|/,]*$", re.IGNORECASE)
#: a parenthesised remark after a name ("Ann Lee (Reuters)", "Bo Kim (MTN News)")
_PAREN_TAIL = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")


#: a lower-case run glued to a capitalised word ("Ann LeeMarketing Director", "Bo KimResearch"):
#: where a byline's name ends and the next piece of markup starts ("McKenzie", "DiCaprio",
#: "MacLeod" have at most two lower-case letters before the inner capital)
_CAMEL_GLUE = re.compile(r"(?<=[^\W\d_](?-i:[a-z]){3})(?=(?-i:[A-Z][a-z]))")


def _clean(name: str) -> str:
    name = " ".join(unescape(name).split()) if "&" in name else " ".join(name.split())
    name = _LABEL.sub("", _BY.sub("", name))
    name = _PAREN_TAIL.sub("", name) or name
    name = _ROLE_TAIL.sub("", name).strip(" .,:;-–—|")
    name = _NOISE_TAIL.sub("", name).strip(" .,:;-–—|")
    return name


def is_handle(name: str) -> bool:
    """A user name rather than a person's name ("newsengin", "col_cops", "Admin"): one lower-case
    token or a site's role account."""
    return " " not in name and (name.islower() or "_" in name or name.lower() in _ROLE_ACCOUNTS)


#: lower-case parts of names ("Ludwig van Beethoven", "Ana de la Cruz")
_PARTICLES = frozenset("van von der den de del della la le da dos das du di bin al ter ten".split())


def name_like(name: str) -> bool:
    """Two to four words, each starting with a capital (particles aside): how a byline in a
    cased script writes a person.  (A one-word "name" cannot be told from a label.)"""
    words = name.split()
    if len(name) > MAX_NAME_CHARS or not 2 <= len(words) <= 4 or not words[0][:1].isupper():
        return False
    return all(w[:1].isupper() or w.lower() in _PARTICLES for w in words)


def plausible_name(name: str) -> bool:
    """A name a byline line may give: one word (a user name, a single name), or words that
    all start with a capital (particles aside) in a cased script: "Login New to CHQ?" and
    "our staff" are page text, not names."""
    words = name.split()
    if len(words) <= 1:
        return True
    if len(words) > 6:
        return False
    return all(not w[:1].islower() or w in _PARTICLES for w in words)


def split_names(text: str) -> list[str]:
    """The names in one author string ("By Ann Lee and Bo Kim" → ["Ann Lee", "Bo Kim"])."""
    return list(_split_names(text or ""))


@lru_cache(maxsize=4096)
def _split_names(text: str) -> tuple[str, ...]:
    """:func:`split_names`, remembered: a site's pages give the same few author strings."""
    return tuple(_split(text))


def _split(text: str) -> list[str]:
    text = _clean(text or "")
    if not text or len(text) > 4 * MAX_NAME_CHARS or _NOT_NAME.search(text.split()[0] if text.split() else ""):
        return []
    out: list[str] = []
    m = _AFFILIATION.search(text)
    if m and name_like(_clean(text[:m.start()])):
        text = text[:m.start()]  # ("Ann Lee | Associated Press", "Bo Kim/MTN News": the writer's outlet)
    for part in _SPLIT.split(text):
        name = _clean(part)
        words = name.split()
        job = next((i for i, w in enumerate(words[:-1]) if i >= 2 and w.lower() in _JOB_WORDS), None)
        if job is not None and name_like(" ".join(words[:job])):
            words = words[:job]  # (a job title glued to the name by the markup)
            name = " ".join(words)
        if len(words) >= 3 and words[-1].lower().strip(".") in _CALENDAR:
            name = " ".join(words[:-1])  # ("Ann Lee June": the start of a date line)
        if (name and len(name) <= MAX_NAME_CHARS and not _NOT_NAME.search(name) and any(c.isalpha() for c in name)
                and not all(w.lower().strip(".,") in _CALENDAR for w in words) and name.lower() not in FURNITURE
                and (name.lower() in _ROLE_ACCOUNTS or not all(w.lower() in _JOB_WORDS for w in words))):
            if name not in out:
                out.append(name)
    return out


def names_from_ld(value: Any) -> list[str]:
    """The names of a JSON-LD ``author``/``creator`` value (string, object or list)."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            name = item.get("name")
            if isinstance(name, str):
                stack.append(name)
            elif isinstance(name, (list, dict)):
                stack.append(name)
            elif isinstance(item.get("givenName"), str):
                stack.append(f"{item['givenName']} {item.get('familyName') or ''}")
        elif isinstance(item, str):
            for name in split_names(item):
                if name not in out:
                    out.append(name)
    return out


def names_in_text(text: str) -> list[str]:
    """Names of a byline line: the words after "By"/"Von"/... up to the end of the names."""
    text = " ".join((text or "").split())
    if not text or len(text) > 200:
        return []
    m = _BY.match(text) or _BY_INSIDE.search(text)
    rest = text[m.end():] if m else text
    rest = _unglued(_GLUED_END.split(rest, maxsplit=1)[0]) + " "  # (a word left at the end is still a separator)
    # a date, "Updated", "|" or a second sentence ends the names
    rest = re.split(r"\s(?:updated|published|posted|on|am|le|el|il|den|for)\s|\d|[|•·]", rest, maxsplit=1,
                    flags=re.IGNORECASE)[0]
    return split_names(rest)


def _unglued(text: str) -> str:
    """``text`` up to a job title or label glued to a name's last word ("Ann LeeMarketing
    Director" → "Ann Lee"): only inside a later word followed by more text, so one-word
    handles and brands ("StarredSkies", "Team SimplyThrilled") keep their letters."""
    for m in _CAMEL_GLUE.finditer(text):
        head, tail = text[:m.start()], text[m.start():]
        if " " in head.strip() and re.match(r"\w+\W+\w", tail):
            return head
    return text


def byline_line(text: str) -> list[str]:
    """The names of a short line that opens with a by-word ("By Ann Lee", "Von Anna Berg"),
    each a plausible name; else empty (a line of prose is not a byline)."""
    line = " ".join((text or "").split())
    if not line or len(line) > 100 or not _BY.match(line):
        return []
    names = names_in_text(line)
    return names if names and all(plausible_name(n) and " " in n for n in names) else []


def opens_with_by(text: str) -> bool:
    """Whether a line opens with a by-word ("By", "Von", "Por", "Written by", ...)."""
    return bool(_BY.match(" ".join((text or "").split())))


def bold_names_opening(paragraphs: list[Any], page_text: Callable[[], str],
                       allowed: Callable[[Any], bool] = lambda par: True) -> list[str]:
    """People's names set in bold as a line of their own at the start of a paragraph
    (``<p><strong>Ann Lee</strong><br>Paper.com</p>``): the byline of pages without a byline
    mark.  ``paragraphs`` are the first ones under the headline, looked at up to the first
    paragraph of prose (a bold line after it is a subheading); no word of the names may be
    one the page's text (``page_text``, asked for only when needed) uses in lower case
    ("In This Article", "Start Small"); ``allowed`` is asked last about the paragraph
    (not in a comment)."""
    for par in paragraphs:
        first = par[0] if len(par) else None
        if first is None or first.tag not in ("strong", "b") or (par.text or "").strip():
            if len("".join(par.itertext())) > 150:
                break
            continue
        after = first.getnext()
        if (first.tail or "").strip() or (after is not None and after.tag != "br"):
            continue
        text = " ".join("".join(first.itertext()).split())
        names = split_names(text) if 4 <= len(text) <= 80 else []
        if names and all(name_like(n) for n in names) and not _in_prose(names, page_text()) and allowed(par):
            return names
    return []


def _in_prose(names: list[str], text: str) -> bool:
    """Whether a word of the names stands in lower case between spaces in ``text``."""
    return any(re.search(rf"(?<= ){re.escape(w.lower())}(?=[ ,.;:!?])", text)
               for n in names for w in n.split() if len(w) > 1 and w.lower() not in _PARTICLES)
