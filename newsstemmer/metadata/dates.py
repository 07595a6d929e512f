"""Dates as pages write them → ISO 8601 (``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM[:SS][±HH:MM]``).

Machine forms (ISO 8601, RFC 2822, ``/2024/05/02/`` in a URL) and the written forms of
date lines in many languages: ``August 7, 2026``, ``7. August 2026``, ``7 de agosto de
2026``, ``2026年8月7日 11時21分``, ``2026년 1월 29일``, ``07.08.2026``.  No
``dateutil``/``dateparser`` dependency: a page's date line has few shapes, and these are
tried in a fixed order (year-first numeric, then day-first numeric; month-first numeric
only when the day cannot be a month).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timezone
from email.utils import parsedate_to_datetime

__all__ = ["date_in_text", "date_in_url", "parse_date"]

#: Month names (lower case, accents kept) → month number, for the languages of the dev data
#: and their neighbours; three-letter abbreviations are matched by prefix below.
_MONTHS: dict[str, int] = {}
for _number, _names in enumerate((
    "january januar janvier enero gennaio janeiro januari januar ocak stycznia leden január tammikuu",
    "february februar février febrero febbraio fevereiro februari februar şubat lutego únor február helmikuu",
    "march märz mars marzo marzo março maart mars mart marca březen március maaliskuu",
    "april april avril abril aprile abril april april nisan kwietnia duben április huhtikuu",
    "may mai mai mayo maggio maio mei maj mayıs maja květen május toukokuu",
    "june juni juin junio giugno junho juni juni haziran czerwca červen június kesäkuu",
    "july juli juillet julio luglio julho juli juli temmuz lipca červenec július heinäkuu",
    "august august août agosto agosto agosto augustus augusti ağustos sierpnia srpen augusztus elokuu",
    "september september septembre septiembre settembre setembro september september eylül września září szeptember syyskuu",
    "october oktober octobre octubre ottobre outubro oktober oktober ekim października říjen október lokakuu",
    "november november novembre noviembre novembre novembro november november kasım listopada listopad november marraskuu",
    "december dezember décembre diciembre dicembre dezembro december desember aralık grudnia prosinec december joulukuu",
), start=1):
    for _name in _names.split():
        _MONTHS.setdefault(_name, _number)
for _name, _number in (("sept", 9), ("mars", 3), ("maart", 3), ("mrt", 3), ("okt", 10), ("dez", 12), ("mai", 5),
                       ("juin", 6), ("juil", 7), ("févr", 2), ("déc", 12), ("ene", 1), ("dic", 12), ("ago", 8),
                       ("set", 9), ("out", 10), ("mei", 5), ("maj", 5), ("des", 12), ("huhti", 4)):
    _MONTHS.setdefault(_name, _number)

_MONTH_WORD = r"([^\W\d_]{3,12})\.?"
_YEAR = r"((?:19|20)\d\d)"
_DAY = r"([0-3]?\d)"
_TIME = (r"(?:[,\s]+(?:at|um|à|a las|alle|kl\.?|klockan|saat)?\s*(\d{1,2})[:.h](\d{2})(?::(\d{2}))?"
         r"(?:\s*([AaPp])\.?[Mm]\b\.?)?)?")

_ISO = re.compile(
    r"(?<!\d)((?:19|20)\d\d)[-/.]([01]?\d)[-/.]([0-3]?\d)(?!\d)"
    r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d)?)?"
)
_COMPACT = re.compile(r"(?<!\d)((?:19|20)\d\d)([01]\d)([0-3]\d)(?:T(\d\d)(\d\d)(\d\d)?)?(?!\d)")
_CJK = re.compile(r"((?:19|20)\d\d)\s*[年년]\s*([01]?\d)\s*[月월]\s*([0-3]?\d)\s*[日일]"
                  r"(?:[^\d]{0,8}?(\d{1,2})\s*[時시:]\s*(\d{1,2}))?")
_DAY_MONTH_YEAR = re.compile(rf"(?<!\d){_DAY}(?:\.|º|er|st|nd|rd|th)?\s*(?:de\s+)?{_MONTH_WORD}\s*(?:de\s+)?,?\s*{_YEAR}(?!\d){_TIME}",
                             re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"{_MONTH_WORD}\s+{_DAY}(?:st|nd|rd|th)?,?\s+{_YEAR}(?!\d){_TIME}", re.IGNORECASE)
_NUMERIC_DMY = re.compile(r"(?<![\d.])([0-3]?\d)[./-]([0-3]?\d)[./-]((?:19|20)\d\d)(?!\d)" + _TIME)
#: a two-digit year ("10/17/18"): taken only where the day cannot be a month (17), which
#: also tells which of the two comes first
_NUMERIC_SHORT = re.compile(r"(?<![\d./-])([0-3]?\d)([./-])([0-3]?\d)\2(\d\d)(?![\d./-])")
_DIGIT = re.compile(r"\d")
_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/-]?([01]\d)[/-]?([0-3]\d)(?=[/_-]|\.html|$)")
_URL_YEAR_MONTH_DAY = re.compile(r"/((?:19|20)\d\d)/([01]?\d)/([0-3]?\d)/")


def _month(word: str) -> int | None:
    w = word.lower().rstrip(".")
    if w in _MONTHS:
        return _MONTHS[w]
    if len(w) >= 3:
        for name, number in _MONTHS.items():
            if name.startswith(w) and len(name) > 3:
                return number
    return None


def _iso(year: int, month: int, day: int, hour: str | None = None, minute: str | None = None,
         second: str | None = None, tz: str | None = None) -> str | None:
    try:
        date(year, month, day)
    except ValueError:
        return None
    if not 1990 <= year <= 2100:
        return None
    out = f"{year:04d}-{month:02d}-{day:02d}"
    if hour is not None and minute is not None and int(hour) < 24 and int(minute) < 60:
        out += f"T{int(hour):02d}:{int(minute):02d}"
        if second is not None and int(second) < 60:
            out += f":{int(second):02d}"
        if tz:
            out += "+00:00" if tz == "Z" else (tz if ":" in tz else f"{tz[:3]}:{tz[3:]}")
    return out


def parse_date(value: str) -> str | None:
    """A machine-written date (``<meta>``, JSON-LD, ``<time datetime>``) in ISO form, or None."""
    value = (value or "").strip()
    if not value:
        return None
    m = _ISO.search(value)
    if m:
        y, mo, d, hh, mm, ss, tz = m.groups()
        return _iso(int(y), int(mo), int(d), hh, mm, ss, tz)
    m = _COMPACT.search(value)
    if m and len(value) <= 20:
        y, mo, d, hh, mm, ss = m.groups()
        return _iso(int(y), int(mo), int(d), hh, mm, ss)
    if value.isdigit() and len(value) in (10, 13):  # a Unix time stamp
        seconds = int(value) / (1000 if len(value) == 13 else 1)
        try:
            return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")
        except (OverflowError, OSError, ValueError):
            return None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        parsed = None
    if parsed is not None:
        return _iso(parsed.year, parsed.month, parsed.day, str(parsed.hour), str(parsed.minute))
    return date_in_text(value)


def date_in_text(text: str) -> str | None:
    """The first written date of ``text`` (a date line, a byline), in ISO form, or None."""
    if not text or not _DIGIT.search(text):  # (every written date has a digit)
        return None
    # (a pattern is tried only where the text holds what each of its matches holds: a
    # year's "19" or "20", a separator, a CJK year sign; most lines with a digit hold no date)
    year = "19" in text or "20" in text
    sep = "-" in text or "/" in text or "." in text
    cjk = year and ("年" in text or "년" in text)
    found: list[tuple[int, str]] = []
    for pattern, kind, wanted in ((_CJK, "ymd", cjk), (_ISO, "ymd", year and sep), (_DAY_MONTH_YEAR, "dmy", year),
                                  (_MONTH_DAY_YEAR, "mdy", year), (_NUMERIC_DMY, "num", year and sep),
                                  (_NUMERIC_SHORT, "short", sep)):
        if not wanted:
            continue
        for m in pattern.finditer(text):
            iso = _from_match(m, kind)
            if iso:
                found.append((m.start(), iso))
                break
    return min(found)[1] if found else None


def _from_match(m: re.Match[str], kind: str) -> str | None:
    g = m.groups()
    if kind == "short":
        first, second, year = int(g[0]), int(g[2]), 2000 + int(g[3])
        if (first > 12) == (second > 12):
            return None  # (both could be a month, or neither: not told apart)
        day, month = (first, second) if first > 12 else (second, first)
        return _iso(year, month, day) if year <= date.today().year + 1 else None
    if kind == "ymd":
        return _iso(int(g[0]), int(g[1]), int(g[2]), *(g[3:5] if len(g) > 4 else (None, None)))
    hour = _hour(g[3], g[6])
    if kind == "dmy":
        month = _month(g[1])
        return _iso(int(g[2]), month, int(g[0]), hour, g[4], g[5]) if month else None
    if kind == "mdy":
        month = _month(g[0])
        return _iso(int(g[2]), month, int(g[1]), hour, g[4], g[5]) if month else None
    day, month = int(g[0]), int(g[1])
    if month > 12 and day <= 12:  # month first: 8/27/2026
        day, month = month, day
    return _iso(int(g[2]), month, day, hour, g[4], g[5])


def _hour(hour: str | None, half: str | None) -> str | None:
    """The hour on a 24-hour clock ("3" with "p" → "15", "12" with "a" → "0")."""
    if hour is None or not half or not 1 <= int(hour) <= 12:
        return hour
    return str(int(hour) % 12 + (12 if half.lower() == "p" else 0))


def date_in_url(url: str | None) -> str | None:
    """A date written into a URL path (``/2024/05/02/``, ``/20240502``), or None."""
    if not url:
        return None
    for pattern in (_URL_YEAR_MONTH_DAY, _URL_DATE):
        m = pattern.search(url)
        if m:
            iso = _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            if iso:
                return iso
    return None
