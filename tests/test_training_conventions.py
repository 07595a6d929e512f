"""Which pages' golds train which step of the region extractor (training/README.md,
"Conventions"; issue 23): read off the trainer's row filters, no data set needed."""

from __future__ import annotations

from training.train_region import build_parser, clean_rows, rank_rows


def _row(dataset: str, page_type: str | None = None) -> dict:
    meta = {"dataset": dataset, "site": "s", "id": "1", "group": f"{dataset}/s", "gold_has_title": False}
    if page_type is not None:
        meta["page_type"] = page_type
    return {"meta": meta}


ROWS = [_row("chaos"), _row("readability"), _row("cttf"), _row("fundus-recent"), _row("misinfo"),
        _row("wcxb-dev", "article"), _row("wcxb-dev", "listing"), _row("wcxb-dev", "product")]


def _names(rows: list[dict]) -> list[str]:
    return [r["meta"]["dataset"] + (f":{r['meta']['page_type']}" if "page_type" in r["meta"] else "") for r in rows]


def test_the_ranker_trains_on_every_article_page() -> None:
    assert _names(rank_rows(ROWS)) == ["chaos", "readability", "cttf", "fundus-recent", "misinfo", "wcxb-dev:article"]


def test_the_cleaning_leaves_out_the_golds_that_keep_bylines() -> None:
    assert _names(clean_rows(ROWS)) == ["chaos", "readability", "fundus-recent", "misinfo", "wcxb-dev:article"]


def test_rows_written_before_page_types_count_as_articles() -> None:
    old = {"meta": {"dataset": "dragnet", "site": "s", "id": "1", "group": "dragnet/s", "gold_has_title": True}}
    assert rank_rows([old]) == [old] and clean_rows([old]) == [old]


def test_whole_sets_can_be_left_out_of_training() -> None:
    args = build_parser().parse_args(["--exclude-train", "fundus-recent,misinfo,cttf,wcxb-dev"])
    assert args.exclude_train == ("fundus-recent", "misinfo", "cttf", "wcxb-dev")
    assert build_parser().parse_args([]).exclude_train == ()
