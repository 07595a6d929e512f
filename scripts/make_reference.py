#!/usr/bin/env python3
"""Build ``newsstemmer/data/amplification_reference.json``: F'(f) of natural language.

The automatic boundary of substring amplification (SPEC §3) compares a set of pages
with the spectrum of natural-language text: for each frequency f, the mean and the
standard deviation of F'(f) = F(f) / Σ_{f≥2} F(f) over many samples of real text.

Text used (all offline, all natural language written by people):

* the gold texts of the development data (``../shared/datasets``, hand-marked article
  text): English (big9-05, big9-09, cleanportal, dragnet, readability), French (Le
  Monde, Libération, Libération's video page), Czech (Aktuálně.cz), Spanish (CNET en
  español), Portuguese (Folha), Chinese (gmw, pixnet, qq, youth) and Japanese (Yahoo!
  Japan news, hukumusume);
* Japanese prose: the paragraphs of the seed paper of SPEC §3
  (``../shared/seeds/001_*.txt``) that are mostly kana and kanji.

Exact and near-duplicate texts (same first 200 characters) are kept once.  The demo
site's Japanese sentences (``newsstemmer/demo/japanese.py``) are *not* used: they are
a few hand-written sentences recombined, i.e. a template, which is what the test must
not call natural.

For each size in ``SIZES`` (bytes of UTF-8) and each language with enough text,
random samples are drawn (whole texts, shuffled, until the size is reached), each
sample's F' is computed exactly as :func:`newsstemmer.templates.amplify` does for
pages, and averaged per frequency bin (every f up to 64, then 8 bins per doubling).
Mean and sample standard deviation are taken over all samples of a size, languages
pooled, as in the paper (which found the nine languages it measured nearly alike).

    python scripts/make_reference.py [--data DIR] [--seeds DIR] [-o FILE] [--seed N]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from newsstemmer.templates import amplify, normalized  # noqa: E402

SIZES = (4_000, 16_000, 64_000, 256_000, 1_000_000)
MAX_SAMPLES = 40
EXACT_UNTIL = 64
BINS_PER_DOUBLING = 8
MAX_F = 1 << 20
LANG_OF_SITE = {
    "lemonde": "fr", "liberation": "fr", "videos": "fr", "aktualne": "cs",
    "cnet-svg-classes": "es", "folha": "pt",
}


def frequency_bins() -> list[int]:
    """Left edges of the frequency bins: 2..EXACT_UNTIL, then geometric."""
    edges = list(range(2, EXACT_UNTIL + 1))
    k = 1
    while True:
        e = int(math.ceil(EXACT_UNTIL * 2 ** (k / BINS_PER_DOUBLING)))
        if e > MAX_F:
            break
        if e > edges[-1]:
            edges.append(e)
        k += 1
    return edges


def script_language(text: str) -> str | None:
    kana = sum(1 for c in text if "\u3040" <= c <= "\u30ff")
    han = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
    letters = sum(1 for c in text if c.isalpha())
    if letters and kana / letters > 0.1:
        return "ja"
    if letters and han / letters > 0.3:
        return "zh"
    return None


def gold_texts(data: Path) -> dict[str, list[str]]:
    by_lang: dict[str, list[str]] = defaultdict(list)
    seen: set[str] = set()
    with open(data / "manifest.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            r = json.loads(line)
            text = unicodedata.normalize("NFC", (data / r["gold"]).read_text(encoding="utf-8")).strip()
            key = " ".join(text.split())[:200]
            if len(text) < 200 or key in seen:
                continue
            seen.add(key)
            lang = script_language(text) or LANG_OF_SITE.get(r["site"]) or "en"
            by_lang[lang].append(text)
    return by_lang


def seed_paragraphs(seeds: Path) -> list[str]:
    out = []
    for path in sorted(seeds.glob("001_*.txt")):
        for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            para = re.sub(r"\$[^$]*\$", "", para).strip()  # inline formulas are not prose
            if len(para) >= 40 and script_language(para) == "ja":
                out.append(para)
    return out


def sample(texts: list[str], size: int, rng: random.Random) -> list[str]:
    order = texts[:]
    rng.shuffle(order)
    out, total = [], 0
    for t in order:
        out.append(t)
        total += len(t.encode("utf-8"))
        if total >= size:
            break
    return out


def binned(Fp: np.ndarray, edges: list[int]) -> np.ndarray:
    """Mean of F'(f) over each bin [edges[i], edges[i+1])."""
    out = np.zeros(len(edges))
    bounds = edges + [MAX_F + 1]
    for i in range(len(edges)):
        lo, hi = bounds[i], bounds[i + 1]
        if lo < len(Fp):
            out[i] = Fp[lo:min(hi, len(Fp))].sum() / (hi - lo)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "datasets"))
    ap.add_argument("--seeds", default=str(REPO.parent / "shared" / "seeds"))
    ap.add_argument("-o", "--output", default=str(REPO / "newsstemmer" / "data" / "amplification_reference.json"))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    by_lang = gold_texts(Path(args.data))
    by_lang["ja"].extend(seed_paragraphs(Path(args.seeds)))
    volume = {lang: sum(len(t.encode("utf-8")) for t in texts) for lang, texts in by_lang.items()}
    for lang in sorted(by_lang):
        print(f"{lang}: {len(by_lang[lang])} texts, {volume[lang]} bytes", file=sys.stderr)

    rng = random.Random(args.seed)
    edges = frequency_bins()
    means, sds, sizes, used = [], [], [], []
    for size in SIZES:
        rows, langs = [], defaultdict(int)
        for lang, texts in sorted(by_lang.items()):
            if volume[lang] < size:
                continue
            n = min(MAX_SAMPLES, max(3, 2 * volume[lang] // size))
            for _ in range(n):
                amp = amplify(sample(texts, size, rng), keep_parts=False)
                rows.append(binned(normalized(amp.F), edges))
                langs[lang] += 1
        if len(rows) < 3:
            continue
        r = np.array(rows)
        sizes.append(size)
        means.append([float(f"{x:.6g}") for x in r.mean(axis=0)])
        sds.append([float(f"{x:.6g}") for x in r.std(axis=0, ddof=1)])
        used.append(dict(langs))
        print(f"size {size}: {len(rows)} samples {dict(langs)}", file=sys.stderr)

    out = {
        "format": "newsstemmer-amplification-reference",
        "version": 1,
        "normalisation": "F'(f) = F(f) / sum over f >= 2 of F(f); substrings counted in bytes of UTF-8",
        "made_by": "scripts/make_reference.py",
        "sources": "gold texts of ../shared/datasets (en, fr, cs, es, pt, zh, ja) and the Japanese paragraphs "
                   "of ../shared/seeds/001_*.txt; duplicates dropped",
        "bytes_per_language": volume,
        "samples_per_size": used,
        "f": edges,
        "sizes": sizes,
        "mean": means,
        "sd": sds,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
