import pytest

from newsstemmer.dom.decoding import BinaryContentError, DecodedPage, decode_file, decode_html

JA = "日本語のニュース記事です。東京で新しい駅が開業しました。"


def html(body: str, head: str = "") -> str:
    return f"<html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>"


def test_str_input_returned_as_is():
    assert decode_html("<p>héllo</p>") == DecodedPage("<p>héllo</p>", "unicode")


def test_utf8_bom():
    page = decode_html(b"\xef\xbb\xbf" + html("café").encode("utf-8"))
    assert page.encoding == "utf-8"
    assert page.text == html("café")  # BOM stripped


def test_utf8_bom_beats_header_and_meta():
    body = b"\xef\xbb\xbf" + html("café", '<meta charset="shift_jis">').encode("utf-8")
    page = decode_html(body, "text/html; charset=iso-8859-1")
    assert page.encoding == "utf-8"
    assert "café" in page.text


def test_utf16_bom_is_text_not_binary():
    for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        page = decode_html(bom + html(JA).encode(codec))
        assert page.encoding == codec
        assert page.text == html(JA)


def test_header_charset_wins_over_meta():
    text = html("café crème", '<meta charset="utf-8">')
    page = decode_html(text.encode("cp1252"), "text/html; charset=windows-1252")
    assert page.encoding == "cp1252"
    assert "café crème" in page.text


def test_meta_charset_shift_jis():
    text = html(JA, '<meta charset="Shift_JIS">')
    page = decode_html(text.encode("shift_jis"))
    assert page.encoding == "cp932"
    assert JA in page.text


def test_meta_http_equiv_euc_jp():
    text = html(JA, '<meta http-equiv="Content-Type" content="text/html; charset=EUC-JP">')
    page = decode_html(text.encode("euc_jp"))
    assert page.encoding == "euc_jp"
    assert JA in page.text


def test_undeclared_utf8():
    page = decode_html(html("naïve café — " + JA).encode("utf-8"))
    assert page.encoding == "utf-8"
    assert JA in page.text


def test_undeclared_cp1252():
    page = decode_html(b"<p>caf\xe9 cr\xe8me \x93quoted\x94</p>")
    assert page.encoding == "cp1252"
    assert page.text == "<p>café crème \u201cquoted\u201d</p>"


def test_undeclared_shift_jis():
    page = decode_html(html(JA).encode("shift_jis"))
    assert page.encoding == "cp932"
    assert JA in page.text


def test_undeclared_euc_jp():
    page = decode_html(html(JA).encode("euc_jp"))
    assert page.encoding == "euc_jp"
    assert JA in page.text


def test_undeclared_iso2022jp():
    page = decode_html(html(JA).encode("iso2022_jp"))
    assert page.encoding == "iso2022_jp"
    assert JA in page.text


def test_unknown_declared_charset_falls_back():
    body = html("café", '<meta charset="x-no-such-charset">').encode("utf-8")
    page = decode_html(body, "text/html; charset=bogus-enc")
    assert page.encoding == "utf-8"
    assert "café" in page.text


def test_wrong_declared_charset_falls_back():
    # Declared UTF-8 everywhere, but the bytes are Shift_JIS.
    body = html(JA, '<meta charset="utf-8">').encode("shift_jis")
    page = decode_html(body, "text/html; charset=utf-8")
    assert page.encoding == "cp932"
    assert JA in page.text
    # Declared UTF-8, bytes are cp1252.
    page = decode_html(b'<meta charset="utf-8"><p>caf\xe9</p>')
    assert page.encoding == "cp1252"
    assert "café" in page.text


def test_declared_charset_tolerates_a_stray_byte():
    text = html(JA * 5, '<meta charset="utf-8">')
    body = text.encode("utf-8") + b"\xe6\x97"  # truncated final character
    page = decode_html(body)
    assert page.encoding == "utf-8"
    assert JA in page.text
    assert page.text.endswith("\ufffd")


def test_utf8_with_some_mangled_bytes_stays_utf8():
    # 2 bad bytes among 30 non-ASCII ones: still UTF-8, declared or not (not cp1252 mojibake).
    good = "\u2018quoted\u2019 caf\u00e9 " * 5
    body = html(good).encode("utf-8") + b"<p>\x80\x99</p>"
    for declared in ("", '<meta charset="utf-8">'):
        page = decode_html((declared.encode() + body))
        assert page.encoding == "utf-8"
        assert "\u2018quoted\u2019" in page.text and "\u00e2\u20ac" not in page.text


def test_png_raises():
    body = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06"
    with pytest.raises(BinaryContentError, match="PNG"):
        decode_html(body, "text/html; charset=utf-8")


@pytest.mark.parametrize(
    "body",
    [
        b"\xff\xd8\xff\xe0\x00\x10JFIF",
        b"GIF89a\x01\x00",
        b"%PDF-1.7\n",
        b"PK\x03\x04\x14\x00",
        b"\x1f\x8b\x08\x00",
    ],
)
def test_other_magic_raises(body):
    with pytest.raises(BinaryContentError):
        decode_html(body)


def test_nul_heavy_bytes_raise():
    body = b"<html>" + b"ab\x00cd" * 200 + b"</html>"
    with pytest.raises(BinaryContentError, match="NUL"):
        decode_html(body)
    assert isinstance(BinaryContentError("x"), ValueError)


def test_few_nuls_are_tolerated():
    body = html("x" * 500).encode("ascii") + b"\x00"
    assert decode_html(body).encoding == "utf-8"


def test_empty_body():
    assert decode_html(b"") == DecodedPage("", "utf-8")


def test_decode_file(tmp_path):
    path = tmp_path / "page.html"
    path.write_bytes(html(JA, '<meta charset="shift_jis">').encode("shift_jis"))
    page = decode_file(path)
    assert page.encoding == "cp932"
    assert JA in page.text
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(BinaryContentError):
        decode_file(str(path))


def test_a_stale_latin_declaration_over_utf8_bytes_is_not_believed() -> None:
    body = '<html><head><meta charset="iso-8859-1"></head><body><h1>Grüße für Köln</h1></body></html>'.encode()
    page = decode_html(body)
    assert page.encoding == "utf-8" and "Grüße für Köln" in page.text
    latin = '<html><head><meta charset="iso-8859-1"></head><body>Grüße für Köln</body></html>'.encode("latin-1")
    assert "Grüße für Köln" in decode_html(latin).text  # real Latin-1 bytes are not valid UTF-8
    header = decode_html(body.replace(b' charset="iso-8859-1"', b""), "text/html; charset=ISO-8859-1")
    assert header.encoding == "utf-8"


def test_counting_decode_equals_the_two_pass_count():
    """``_decode_counting`` (a clean decode in one pass) gives the text and error count of
    the replace/ignore count, on clean and broken bytes of several codecs."""
    import random

    from newsstemmer.dom.decoding import _decode_counting

    def two_pass(body: bytes, encoding: str) -> tuple[str, int]:
        text = body.decode(encoding, errors="replace")
        return text, len(text) - len(body.decode(encoding, errors="ignore"))

    rng = random.Random(23)
    samples = [html("café " + JA).encode(enc, errors="replace") for enc in ("utf-8", "cp1252", "cp932", "euc_jp")]
    samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64))) for _ in range(300)]
    samples += [b"\xef\xbb", b"abc\xff", "ok".encode("utf-16")]
    for body in samples:
        for encoding in ("utf-8", "cp1252", "cp1251", "cp932", "euc_jp", "iso2022_jp", "utf-16", "ascii"):
            assert _decode_counting(body, encoding) == two_pass(body, encoding), (body, encoding)
    with pytest.raises(LookupError):
        _decode_counting(b"abc", "no-such-codec")
