#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""validate-lava.py JOB.yaml: validates a LAVA job definition with
lava-common's own schema (the one lava-server runs on submission), strict.
Exit 0 when valid; else prints the error, exit 1."""
import sys

import yaml
from lava_common.schemas import validate
from voluptuous import Invalid

try:
    job = yaml.safe_load(open(sys.argv[1]))
    validate(job, strict=True)
except (Invalid, yaml.YAMLError) as e:
    print("%s: invalid LAVA job: %s" % (sys.argv[1], e))
    sys.exit(1)
