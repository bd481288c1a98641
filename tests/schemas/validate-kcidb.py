#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""validate-kcidb.py SCHEMA FILE: validates a KCIDB document (test helper).
Exit 0 when valid; else prints each error with its JSON path, exit 1."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft202012Validator(
    schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
for e in errs:
    print("%s: %s" % ("/".join(str(p) for p in e.path) or "(root)", e.message))
sys.exit(1 if errs else 0)
