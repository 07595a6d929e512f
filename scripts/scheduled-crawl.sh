#!/usr/bin/env bash
# One incremental newsstemmer crawl into a dated JSON Lines file: for cron and systemd timers.
#
#   scripts/scheduled-crawl.sh [scrapy crawl arguments...]
#   scripts/scheduled-crawl.sh -a sites=/etc/newsstemmer/sites.txt
#
# Each run appends the articles it finds (new ones, and updates with "update": true) to
# $NEWSSTEMMER_DATA/feeds/articles-YYYY-MM-DD.jsonl (UTC date: several runs a day share
# the day's file), keeps its state and patterns in $NEWSSTEMMER_DATA/state and
# $NEWSSTEMMER_DATA/patterns (so the next run only sends what is new), and its log in
# $NEWSSTEMMER_DATA/logs/.  A second run started while one is still going exits at once
# (flock).  Exit status: the crawl's; 3 when NEWSSTEMMER_FAIL_ON_ALERTS=1 and a site's
# health record of this run has alerts (see "Monitoring sites" in README.md).
#
# Environment: NEWSSTEMMER_HOME  the newsstemmer checkout (scrapy.cfg; default: this script's)
#              NEWSSTEMMER_DATA  where feeds, state, patterns and logs go (default: $NEWSSTEMMER_HOME/data)
#              PYTHON            the Python with newsstemmer installed (default: python3)
set -euo pipefail

home="${NEWSSTEMMER_HOME:-$(cd "$(dirname "$0")/.." && pwd)}"
data="${NEWSSTEMMER_DATA:-$home/data}"
python="${PYTHON:-python3}"
mkdir -p "$data/feeds" "$data/state" "$data/patterns" "$data/logs"

exec 9>"$data/state/.scheduled-crawl.lock"
if ! flock -n 9; then
    echo "scheduled-crawl: another run is still going ($data); not starting" >&2
    exit 0
fi

day="$(date -u +%Y-%m-%d)"
stamp="$(date -u +%Y-%m-%dT%H%M%SZ)"
feed="$data/feeds/articles-$day.jsonl"
log="$data/logs/crawl-$stamp.log"
lines_before=0  # (the first run has no health records yet)
if [ -f "$data/state/health.jsonl" ]; then
    lines_before=$(wc -l < "$data/state/health.jsonl")
fi

cd "$home"
status=0
"$python" -m scrapy crawl news -o "$feed" \
    -s NEWSSTEMMER_STATE_DIR="$data/state" -s NEWSSTEMMER_PATTERNS_DIR="$data/patterns" \
    -s LOG_FILE="$log" "$@" || status=$?
echo "scheduled-crawl: $feed (log: $log, exit $status)" >&2
if [ "$status" -ne 0 ]; then
    exit "$status"
fi

if [ "${NEWSSTEMMER_FAIL_ON_ALERTS:-0}" = "1" ] && [ -f "$data/state/health.jsonl" ]; then
    alerts=$(tail -n "+$((lines_before + 1))" "$data/state/health.jsonl" | "$python" -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    for a in r.get("alerts", []):
        print(r["site"] + ": " + a)')
    if [ -n "$alerts" ]; then
        echo "scheduled-crawl: health alerts:" >&2
        echo "$alerts" >&2
        exit 3
    fi
fi
