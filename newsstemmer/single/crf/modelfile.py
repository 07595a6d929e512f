"""CRF model files: training the two first-pass CRFs, writing and reading the file (SPEC §5).

A model file is a zip archive holding ``meta.json`` (format, versions, split
tags, training parameters and data) and one crfsuite model per sequence (text
blocks, parent blocks).  The same training gives the same bytes.  The shipped
default model is :data:`DEFAULT_MODEL` (``training/train_crf.py`` rebuilds it).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import NewsstemmerError
from ...shipped import model_path
from .features import FEATURE_VERSION, block_features
from .segmentation import DEFAULT_SPLIT_TAGS, CRFPage

__all__ = [
    "CRFModelError",
    "DEFAULT_MODEL",
    "DEFAULT_TRAIN_PARAMS",
    "Model",
    "TrainingPage",
    "load_model",
    "train",
]

#: The shipped model (trained by ``training/train_crf.py``).
DEFAULT_MODEL = model_path("crf")
MODEL_FORMAT = "newsstemmer-crf"
MODEL_VERSION = 1


class CRFModelError(NewsstemmerError, ValueError):
    """A CRF model file is missing, unreadable, corrupt, or not a newsstemmer CRF model."""


@dataclass
class TrainingPage:
    """A page cut into blocks, with a content label for each block of its two sequences."""

    page: CRFPage
    text_labels: list[bool]
    parent_labels: list[bool]
    source: str | None = None


_ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed, so that the same training gives the same bytes
TEXT_MODEL, PARENT_MODEL, META = "text.crfsuite", "parent.crfsuite", "meta.json"

#: crfsuite training parameters of the default model (L-BFGS; L2 and a feature count floor
#: did better than L1 on the training sites, see training/train_crf.py --cv).
DEFAULT_TRAIN_PARAMS: dict[str, Any] = {
    "c1": 0.0,
    "c2": 2.0,
    "max_iterations": 200,
    "feature.minfreq": 10,
}


def train(
    pages: Iterable[TrainingPage],
    path: str | os.PathLike[str],
    params: dict[str, Any] | None = None,
    split_tags: Iterable[str] = DEFAULT_SPLIT_TAGS,
    info: dict[str, Any] | None = None,
) -> Path:
    """Train the two first-pass CRFs and write the model file (zip, written atomically).

    ``pages`` must have been segmented with ``split_tags`` (recorded in the model, so
    pages to label are cut the same way).  Returns the path written.
    """
    import pycrfsuite

    settings = {**DEFAULT_TRAIN_PARAMS, **(params or {})}
    trainers = {TEXT_MODEL: pycrfsuite.Trainer(verbose=False), PARENT_MODEL: pycrfsuite.Trainer(verbose=False)}
    counts = {TEXT_MODEL: [0, 0, 0], PARENT_MODEL: [0, 0, 0]}  # sequences, blocks, content blocks
    n_pages = 0
    for tp in pages:
        n_pages += 1
        text_x, parent_x = block_features(tp.page)
        for name, xs, ys in ((TEXT_MODEL, text_x, tp.text_labels), (PARENT_MODEL, parent_x, tp.parent_labels)):
            if len(xs) != len(ys):
                raise ValueError(f"{tp.source or 'page'}: {len(ys)} labels for {len(xs)} blocks")
            if xs:
                trainers[name].append(xs, ["1" if y else "0" for y in ys])
                c = counts[name]
                c[0] += 1
                c[1] += len(ys)
                c[2] += sum(ys)
    for name, c in counts.items():
        if c[1] == 0 or c[2] in (0, c[1]):
            raise ValueError(f"cannot train the {name.split('.')[0]} model: its blocks need both labels ({c[2]} of {c[1]} content)")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    blobs: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="newsstemmer-crf-") as tmp:
        for name, trainer in trainers.items():
            trainer.select("lbfgs", "crf1d")
            trainer.set_params(settings)
            out = os.path.join(tmp, name)
            trainer.train(out)
            blobs[name] = Path(out).read_bytes()
    meta = {
        "format": MODEL_FORMAT,
        "version": MODEL_VERSION,
        "features": FEATURE_VERSION,
        "split_tags": list(split_tags),
        "params": settings,
        "pages": n_pages,
        "text_blocks": {"sequences": counts[TEXT_MODEL][0], "blocks": counts[TEXT_MODEL][1], "content": counts[TEXT_MODEL][2]},
        "parent_blocks": {"sequences": counts[PARENT_MODEL][0], "blocks": counts[PARENT_MODEL][1], "content": counts[PARENT_MODEL][2]},
        **({"info": info} if info else {}),
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in ((META, (json.dumps(meta, indent=1, sort_keys=True) + "\n").encode()), *blobs.items()):
            zi = zipfile.ZipInfo(name, _ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            zf.writestr(zi, data)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(buf.getvalue())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_name, 0o666 & ~umask)  # as an ordinary file (mkstemp makes it private)
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    return target


@dataclass
class Model:
    """An opened model file: its meta data and a crfsuite tagger per sequence."""

    meta: dict[str, Any]
    text: Any  # pycrfsuite.Tagger
    parent: Any
    text_has_content: bool
    parent_has_content: bool
    # crfsuite reads a model opened from memory in place: its bytes must outlive the taggers.
    blobs: tuple[bytes, bytes] = (b"", b"")


def load_model(path: str | os.PathLike[str]) -> Model:
    """Open a model file; every failure is a :class:`CRFModelError` naming the file."""
    import pycrfsuite

    where = str(path)
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            missing = {META, TEXT_MODEL, PARENT_MODEL} - names
            if missing:
                raise CRFModelError(f"{where}: not a newsstemmer CRF model (missing {', '.join(sorted(missing))})")
            try:
                meta = json.loads(zf.read(META).decode("utf-8"))
                text_blob = zf.read(TEXT_MODEL)
                parent_blob = zf.read(PARENT_MODEL)
            except (zipfile.BadZipFile, zlib.error, EOFError) as exc:  # damaged contents (CRC, deflate)
                raise CRFModelError(f"{where}: corrupt CRF model file: {exc}") from None
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise CRFModelError(f"{where}: corrupt CRF model file: bad {META}: {exc}") from None
    except FileNotFoundError:
        raise CRFModelError(f"{where}: CRF model file not found") from None
    except IsADirectoryError:
        raise CRFModelError(f"{where}: is a directory, not a CRF model file") from None
    except zipfile.BadZipFile:
        raise CRFModelError(f"{where}: not a newsstemmer CRF model (not a zip archive; train one with 'newsstemmer train-crf')") from None
    except (OSError, EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        raise CRFModelError(f"{where}: cannot read CRF model file: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
        raise CRFModelError(f"{where}: not a newsstemmer CRF model (format {meta.get('format') if isinstance(meta, dict) else None!r})")
    if meta.get("version") != MODEL_VERSION or meta.get("features") != FEATURE_VERSION:
        raise CRFModelError(
            f"{where}: CRF model of version {meta.get('version')}/features {meta.get('features')}, this newsstemmer "
            f"reads {MODEL_VERSION}/{FEATURE_VERSION}: train the model again"
        )
    tags = meta.get("split_tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) for t in tags):
        raise CRFModelError(f"{where}: corrupt CRF model file: bad split_tags")
    taggers = []
    for name, blob in ((TEXT_MODEL, text_blob), (PARENT_MODEL, parent_blob)):
        tagger = pycrfsuite.Tagger()
        try:
            tagger.open_inmemory(blob)
            labels = set(tagger.labels())
        except (ValueError, OSError) as exc:
            raise CRFModelError(f"{where}: corrupt CRF model file: {name}: {exc}") from None
        if not labels or not labels <= {"0", "1"}:
            raise CRFModelError(f"{where}: corrupt CRF model file: {name} has labels {sorted(labels)}")
        taggers.append((tagger, "1" in labels))
    (text, text_c), (parent, parent_c) = taggers
    return Model(meta, text, parent, text_c, parent_c, (text_blob, parent_blob))
