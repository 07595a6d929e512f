"""The add-on and the settings: components registered, off when disabled, the feed storage."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from newsstemmer.crawl.addon import NewsstemmerAddon
from newsstemmer.crawl.config import DEFAULTS, Config
from newsstemmer.crawl.extension import NewsstemmerExtension
from newsstemmer.crawl.middleware import NewsstemmerSpiderMiddleware
from newsstemmer.crawl.pipeline import NewsstemmerPipeline


def test_config_defaults_and_settings():
    assert Config.from_settings(Settings()) == Config()
    assert set(DEFAULTS) == {f"NEWSSTEMMER_{f.upper()}" for f in Config.__dataclass_fields__}
    c = Config.from_settings(Settings({"NEWSSTEMMER_MIN_PAGES": "7", "NEWSSTEMMER_ENABLED": "False",
                                       "NEWSSTEMMER_STATE_DIR": "/tmp/x"}))
    assert (c.min_pages, c.enabled, c.buffer_path) == (7, False, Path("/tmp/x/buffer.sqlite"))


def test_single_page_method_setting_is_checked():
    assert Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "CRF"})).single_page_method == "crf"
    assert Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "none"})).single_page_method == ""
    with pytest.raises(ValueError, match="NEWSSTEMMER_SINGLE_PAGE_METHOD.*pagerank"):
        Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "readability"}))


def test_addon_registers_the_three_components():
    settings = Settings({"ITEM_PIPELINES": {"scrapy.pipelines.files.FilesPipeline": 300}})
    NewsstemmerAddon().update_settings(settings)
    assert settings.getdict("SPIDER_MIDDLEWARES")[NewsstemmerSpiderMiddleware] > 0
    pipelines = settings.getdict("ITEM_PIPELINES")
    assert pipelines[NewsstemmerPipeline] < pipelines["scrapy.pipelines.files.FilesPipeline"]
    assert NewsstemmerExtension in settings.getdict("EXTENSIONS")


def test_components_are_not_configured_when_disabled():
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(settings_dict={"NEWSSTEMMER_ENABLED": False})
    for component in (NewsstemmerSpiderMiddleware, NewsstemmerPipeline, NewsstemmerExtension):
        with pytest.raises(NotConfigured):
            component.from_crawler(crawler)


def test_addon_installs_a_flushing_feed_storage_unless_the_project_has_one(tmp_path):
    from newsstemmer.crawl.feeds import FlushingFileFeedStorage

    settings = Settings()
    NewsstemmerAddon().update_settings(settings)
    assert settings.getdict("FEED_STORAGES")["file"] is FlushingFileFeedStorage
    settings = Settings({"FEED_STORAGES": {"file": "myproject.Storage"}})
    NewsstemmerAddon().update_settings(settings)
    assert settings.getdict("FEED_STORAGES")["file"] == "myproject.Storage"

    storage = FlushingFileFeedStorage(str(tmp_path / "out" / "f.jsonl"), feed_options={"overwrite": True})
    fh = storage.open(None)
    fh.write(b'{"a": 1}\n')
    assert (tmp_path / "out" / "f.jsonl").read_bytes() == b'{"a": 1}\n'  # on disk before close
    storage.store(fh)
