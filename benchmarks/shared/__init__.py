"""What the benchmark, training and experiment scripts share: the evaluation data
(``data``), site-grouped folds (``folds``), the evaluation sets and CV tables
(``scoring``), the caches of training data (``cache``) and another checkout's package
for A/B speed runs (``basecode``).

The one module every script imports; it imports no script (benchmarks/README.md,
"Layout of this folder").  Its modules import each other relatively, so it loads both
as ``benchmarks.shared`` (the scripts) and as ``shared`` with ``benchmarks/`` on
``sys.path`` (``scripts/same_output.py``).
"""

from .basecode import base_package
from .cache import CACHE_DIR, CACHE_ENV_VAR, cache_file, cached, code_stamp
from .data import REPO_ROOT, Entry, add_data_option, by_site, data_dir, load_manifest, prediction, select
from .folds import assign_groups, group_key, grouped_folds, site_groups
from .scoring import (DEFAULT_SETS, LAYOUT_SINGLE_SETS, MULTI_SETS, SETS, SINGLE_SETS, UNTRAINED_LAYOUT_SETS, figures, page_id,
                      print_tables, set_entries, set_of_pages)

__all__ = [
    "CACHE_DIR", "CACHE_ENV_VAR", "DEFAULT_SETS", "LAYOUT_SINGLE_SETS", "MULTI_SETS", "REPO_ROOT", "SETS", "SINGLE_SETS",
    "UNTRAINED_LAYOUT_SETS", "Entry", "add_data_option", "assign_groups", "base_package", "by_site", "cache_file", "cached", "code_stamp", "data_dir",
    "figures", "group_key", "grouped_folds", "load_manifest", "page_id", "prediction", "print_tables", "select",
    "set_entries", "set_of_pages", "site_groups",
]
