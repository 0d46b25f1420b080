#!/usr/bin/env python3
"""Oracle helper: does the API log hold a request matching all the given conditions?

usage: requests.py METHOD PATH [query=Q] [param:NAME=VALUE] [header:NAME=VALUE] [json=JSON] [body~TEXT]
Exit 0 if some logged request matches every condition (waiting up to two seconds), 1 otherwise.
"""
import json
import sys
import time
from urllib.parse import parse_qs

method, path, conditions = sys.argv[1], sys.argv[2], sys.argv[3:]


def matches(r: dict) -> bool:
    if r["method"] != method or r["path"] != path:
        return False
    for c in conditions:
        if c.startswith("query="):
            if r["query"] != c[6:]:
                return False
        elif c.startswith("param:"):
            name, _, value = c[6:].partition("=")
            if parse_qs(r["query"]).get(name) != [value]:
                return False
        elif c.startswith("header:"):
            name, _, value = c[7:].partition("=")
            if r["headers"].get(name.lower()) != value:
                return False
        elif c.startswith("json="):
            try:
                if json.loads(r["body"]) != json.loads(c[5:]):
                    return False
            except ValueError:
                return False
        elif c.startswith("body~"):
            if c[5:] not in r["body"]:
                return False
    return True


for _ in range(40):
    try:
        records = [json.loads(line) for line in open("/tmp/http/requests.jsonl")]
    except OSError:
        records = []
    if any(matches(r) for r in records):
        sys.exit(0)
    time.sleep(0.05)
print(json.dumps(records, indent=1)[-2000:])
sys.exit(1)
