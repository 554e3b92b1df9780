"""Seconds per test file of a run, longest first: what conftest's LONGEST_FIRST is ordered by.

    bash scripts/test.sh --junitxml=artifacts/junit.xml
    .venv/bin/python -m tests.file_times artifacts/junit.xml

Each test's time in the JUnit XML is its setup, call and teardown, so a module fixture (a server,
trained models) counts in its file's first test. Run under xdist, a file's seconds are its worker's
wall time on it, stretched by whatever ran beside it; a file run alone (`-n 0`) gives its own cost.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def file_of(classname: str) -> str:
    """The file a JUnit classname comes from: "tests.test_cli.TestX" -> "test_cli.py"; a
    doctest's module ("explorer_core.viz.training") stays as it is."""
    parts = classname.split(".")
    return f"{parts[1]}.py" if parts[0] == "tests" and len(parts) > 1 else classname


def file_seconds(report: Path) -> dict[str, float]:
    """Seconds of each file's tests in a JUnit XML report, longest first."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).getroot().iter("testcase"):
        seconds[file_of(case.get("classname", ""))] += float(case.get("time", 0))
    return dict(sorted(seconds.items(), key=lambda item: -item[1]))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: python -m tests.file_times REPORT.xml (pytest --junitxml)", file=sys.stderr)
        return 2
    seconds = file_seconds(Path(argv[0]))
    for name, value in seconds.items():
        print(f"{value:8.1f}  {name}")
    print(f"{sum(seconds.values()):8.1f}  in all ({len(seconds)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
