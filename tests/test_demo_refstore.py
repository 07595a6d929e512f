"""The long-run demo's articles on disk (issue #26): a list's answers from a SQLite file, and the article
pages' related boxes chosen from views of a section as from the whole list."""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass

import pytest

from newsstemmer.demo import articles, refstore
from newsstemmer.demo.days import Schedule
from newsstemmer.demo.longrun import DemoDays


@dataclass
class Art:
    id: int
    section: str
    title: str


def test_the_store_reads_as_the_list_of_every_article(tmp_path, monkeypatch):
    monkeypatch.setattr(refstore, "CACHED_REFS", 5)  # most reads from the file
    days = DemoDays(3, 40, Schedule.long(12, 3, None, 400), refs=tmp_path / "refs.sqlite")
    days.site(6)
    store = days.refs
    kept = list(store)  # made again from the rows
    assert len(kept) == len(store) == 40 + 5 * 12 and store.path.exists()
    assert [a.id for a in kept] == list(store.ids) == sorted(store.ids)
    assert [(a.id, a.path, a.title, a.when, a.tags, a.author) for a in reversed(store)] == \
           [(a.id, a.path, a.title, a.when, a.tags, a.author) for a in kept[::-1]]
    assert store[-1].id == kept[-1].id and store[45].path == kept[45].path
    assert [a.id for a in store[38:43]] == [a.id for a in kept[38:43]] and len(store[-15:]) == 15
    with pytest.raises(IndexError):
        store[len(kept)]
    for key in store.sections:
        section = store.section(key)
        assert [a.id for a in section] == [a.id for a in kept if a.section == key]
        assert [a.id for a in store.section(key, 2)] == [a.id for a in kept if a.section == key][:2]
    assert store.first_of(kept[50].title) == kept[50].id and store.first_of("No such headline") is None
    store.close()
    assert not store.path.exists()


def test_a_store_without_a_file_named_uses_a_temporary_one_removed_with_it():
    days = DemoDays(3, 40, Schedule.long(12, 3, None, 400))
    days.site(2)
    path = days.refs.path
    assert path.exists()
    del days
    gc.collect()
    assert not path.exists()


@pytest.mark.parametrize("seed", range(40))
def test_the_nearest_and_the_others_are_those_of_the_whole_list(seed):
    rng = random.Random(seed)
    ids = sorted(rng.sample(range(1, 400), rng.randint(1, 40)))
    arts = [Art(i, "world", f"t{i}") for i in ids]
    art = rng.choice(arts) if rng.random() < 0.8 else Art(401, "world", "not listed")
    whole = [a for a in arts if a.id != art.id]
    others = articles._others(arts, art)
    assert list(others) == whole and len(others) == len(whole)
    assert [others[k] for k in range(len(whole))] == whole
    if whole:
        assert others[-1] == whole[-1]
    for k in (3, 4):
        assert [others[j] for j in articles._nearest(others, art.id, k)] == \
               sorted(whole, key=lambda a: abs(a.id - art.id))[:k]
    near = articles._nearest(others, art.id, 3)
    rest = articles._Skipping(others, near)
    assert list(rest) == [a for i, a in enumerate(whole) if i not in near]
    a, b = random.Random(seed), random.Random(seed)
    for n in range(3):  # the same draws from a view as from a list
        assert a.sample(rest, min(n, len(rest))) == b.sample(list(rest), min(n, len(rest)))
    if whole:
        assert a.choice(others) == b.choice(whole)
