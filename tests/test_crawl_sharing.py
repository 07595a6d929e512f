"""A worker's part in a crawl shared through Redis (:mod:`newsstemmer.crawl.sharing`), through
its narrow view of the learner (:class:`~newsstemmer.crawl.sharing.SharedLearner`): a small
fake learner here, a real Redis server, two workers in one process."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scrapy.exceptions import DontCloseSpider

from newsstemmer import SitePatterns
from newsstemmer.crawl.config import Config
from newsstemmer.crawl.items import FetchedPage
from newsstemmer.crawl.learner import SiteLearner
from newsstemmer.crawl.sharing import SharedCrawl, SharedLearner
from newsstemmer.crawl.storage import Storage
from newsstemmer.layout.patterns import LayoutPattern

from redis_fixture import flush  # noqa: E402

pytestmark = pytest.mark.redis

SITE = "news.example"


class FakeLearner:
    """What a shared crawl may ask of a learner, and a record of what it asked."""

    def __init__(self) -> None:
        self.final = False
        self.patterns: dict[str, SitePatterns] = {}
        self.versions: dict[str, int] = {}
        self.kicked: list[str] = []
        self.woken = 0
        self.working = False

    def knows(self, site: str) -> bool:
        return site in self.patterns

    def patterns_version(self, site: str) -> int | None:
        return self.versions.get(site)

    def use_patterns(self, site: str, patterns: SitePatterns, version: int) -> None:
        self.patterns[site], self.versions[site] = patterns, version

    def kick(self, site: str) -> None:
        self.kicked.append(site)

    def busy(self) -> bool:
        return self.working

    def wake(self) -> None:
        self.woken += 1


@pytest.fixture
def config(redis_url, tmp_path) -> Config:
    flush(redis_url)
    return Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns", redis_url=redis_url,
                  redis_prefix="t", min_pages=3, worker_timeout=5.0)


def _worker(config: Config) -> tuple[SharedCrawl, FakeLearner, Storage]:
    learner, storage = FakeLearner(), Storage(config)
    crawler = SimpleNamespace(stats=SimpleNamespace(set_value=lambda *a: None))
    shared = SharedCrawl(learner, crawler, storage)
    storage.worker.join(fresh=False)
    return shared, learner, storage


def _patterns(n: int) -> SitePatterns:
    return SitePatterns(SITE, [LayoutPattern(id=f"p{i}", score=100.0 + i, pages=3, sections=[]) for i in range(n)])


def _page(i: int) -> FetchedPage:
    return FetchedPage(f"http://{SITE}/{i}.html", SITE, f"<p>page {i}</p>")


def test_the_learner_offers_everything_the_shared_crawl_asks():
    asked = [name for name in vars(SharedLearner) if not name.startswith("_")]
    assert sorted(asked) == ["busy", "final", "kick", "knows", "patterns_version", "use_patterns", "wake"]
    for name in asked:
        assert hasattr(SiteLearner, name) or name == "final"  # (final: an attribute of the instance)
        assert hasattr(FakeLearner(), name)


def test_patterns_learned_by_another_worker_are_used_once_per_version(config):
    one, learner, _ = _worker(config)
    _, _, other = _worker(config)
    version = other.patterns.publish(SITE, _patterns(2))
    one.tick()
    assert learner.patterns_version(SITE) == version and len(learner.patterns[SITE].patterns) == 2
    learner.patterns[SITE] = _patterns(9)  # (a reload of the same version would overwrite this)
    one.tick()
    assert len(learner.patterns[SITE].patterns) == 9
    newer = other.patterns.publish(SITE, _patterns(3))
    one.tick()
    assert learner.patterns_version(SITE) == newer > version and len(learner.patterns[SITE].patterns) == 3


def test_a_site_is_learned_by_one_worker_once_a_round_is_due(config):
    one, first, storage = _worker(config)
    two, second, _ = _worker(config)
    buffer = storage.page_buffer()
    buffer.add(_page(1))
    assert not one.may_learn(SITE)  # one page of three: nothing due, no lease taken
    first.final = True  # the end of the crawl: learned with what there is
    assert one.may_learn(SITE) and one.may_learn(SITE)  # (held: renewed)
    second.final = True
    assert not two.may_learn(SITE)  # the lease is the first worker's
    one.leases.release_all()
    assert two.may_learn(SITE)


def test_pages_other_workers_buffered_before_the_patterns_are_tried_once_per_version(config):
    one, learner, storage = _worker(config)
    buffer = storage.page_buffer()
    for i in range(3):
        buffer.add(_page(i), 0)  # buffered with no patterns
    learner.use_patterns(SITE, _patterns(1), 1)
    found = one.untried(SITE)
    assert found == {_page(i).url for i in range(3)}
    assert one.untried(SITE) == set()  # each page once per version
    learner.versions[SITE] = 2
    assert one.untried(SITE) == found


def test_the_end_waits_for_sites_other_live_workers_learn(config):
    one, learner, storage = _worker(config)
    two, _, _ = _worker(config)
    storage.page_buffer().add(_page(1))
    one.wait_for_others()  # nobody holds the site: this worker learns it (a round it then runs)
    assert learner.kicked == [SITE]
    assert two.leases.acquire(SITE)  # another live worker learns it
    with pytest.raises(DontCloseSpider):
        one.wait_for_others()
    assert learner.woken == 0  # (woken later, by the reactor: WAKE_SECONDS)
    one.closed("finished")


def test_a_broken_site_is_waited_for_by_nobody(config):
    one, learner, storage = _worker(config)
    two, _, _ = _worker(config)
    storage.page_buffer().add(_page(1))
    assert two.leases.acquire(SITE)
    two.broken(SITE)  # its round failed: the pages stay for the next crawl
    one.wait_for_others()
    assert learner.kicked == []
    one.closed("finished")
    two.closed("finished")
