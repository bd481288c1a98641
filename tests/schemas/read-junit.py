#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reads a junit.xml as CI tools read it, with a third-party JUnit reader
(junitparser, Debian's python3-junitparser): one line per testcase,
"NAME<TAB>RESULT" (pass, failure, error or skipped), then "tests N
failures N errors N skipped N" from the suite's attributes. Exit 1 when
the file cannot be read as JUnit."""
import sys

from junitparser import Error, Failure, JUnitXml, Skipped


def main():
    try:
        xml = JUnitXml.fromfile(sys.argv[1])
    except Exception as e:  # what a CI tool would refuse
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    suites = list(xml) if xml._tag == "testsuites" else [xml]
    for suite in suites:
        for case in suite:
            kinds = {Failure: "failure", Error: "error", Skipped: "skipped"}
            res = [kinds[type(r)] for r in case.result if type(r) in kinds]
            print(f"{case.name}\t{res[0] if res else 'pass'}")
        print(f"tests {suite.tests} failures {suite.failures} "
              f"errors {suite.errors} skipped {suite.skipped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
