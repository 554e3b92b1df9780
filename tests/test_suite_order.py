"""The suite's schedule (issue 37): the longest files start first, in the order conftest names
them, and scripts/test.sh keeps that order instead of xdist's order by number of tests."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import conftest, file_times

ROOT = Path(__file__).resolve().parents[1]


def test_every_longest_file_is_a_test_file_named_once():
    """A renamed or deleted file would fall out of the order without a word."""
    names = conftest.LONGEST_FIRST
    assert len(set(names)) == len(names)
    missing = [name for name in names if not (ROOT / "tests" / name).is_file()]
    assert not missing, missing


def fake_item(name: str, test: str) -> SimpleNamespace:
    marks = []
    return SimpleNamespace(path=Path("tests") / name, id=f"{name}::{test}", marks=marks,
                           add_marker=marks.append)  # fmt: skip


def test_the_longest_files_come_first_and_each_file_keeps_its_order():
    first, second = conftest.LONGEST_FIRST[:2]
    items = [
        fake_item("test_a.py", "one"), fake_item(second, "x"), fake_item("test_a.py", "two"),
        fake_item(first, "y"), fake_item(second, "z"), fake_item("test_b.py", "one"),
    ]  # fmt: skip
    conftest.pytest_collection_modifyitems(items)
    assert [item.id for item in items] == [
        f"{first}::y", f"{second}::x", f"{second}::z",
        "test_a.py::one", "test_a.py::two", "test_b.py::one",
    ]  # fmt: skip


def test_the_test_command_keeps_the_collection_order():
    """xdist's default (--loadscope-reorder) sorts files by their number of tests, whatever
    conftest's order says."""
    command = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "--dist loadfile" in command and "--no-loadscope-reorder" in command


def test_file_times_sums_each_files_tests(tmp_path, capsys):
    report = tmp_path / "junit.xml"
    report.write_text(
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.test_cli" name="a" time="1.5"/>'
        '<testcase classname="tests.test_cli.TestX" name="b" time="2.0"/>'
        '<testcase classname="tests.test_app" name="c" time="4.0"/>'
        '<testcase classname="explorer_core.viz.training" name="d" time="0.25"/>'
        "</testsuite></testsuites>",
        encoding="utf-8",
    )
    seconds = file_times.file_seconds(report)
    assert seconds == {"test_app.py": 4.0, "test_cli.py": 3.5, "explorer_core.viz.training": 0.25}
    assert list(seconds) == ["test_app.py", "test_cli.py", "explorer_core.viz.training"]
    assert file_times.main([str(report)]) == 0
    assert "7.8  in all (3 files)" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [[], ["missing.xml"]])
def test_file_times_without_a_report_says_how_to_call_it(argv, capsys):
    assert file_times.main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("usage:")
