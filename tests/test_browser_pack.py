"""The lesson pack in a real browser: upload one, see the Lab replay it, download the session.

The download matters here: Streamlit builds a download's bytes outside the script run, which
AppTest cannot show (a first version downloaded an empty pack). Screenshots (look at them):
artifacts/screenshots/pack-restored.png and pack-lab.png.
"""

from __future__ import annotations

import pytest

from explorer_core.files.lesson_pack import LabResult, TokenizerBundle, read_pack, write_pack
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import new_tokenizer

pytestmark = [pytest.mark.browser, pytest.mark.slow]
UPLOAD = '[data-testid="stFileUploaderDropzoneInput"]'


def test_upload_restores_the_lab_and_download_gives_the_session_back(browser, tmp_path):
    tokenizer = new_tokenizer("char-bpe")
    trace = tokenizer.train(builtin_corpus("mixed")[:4000], 450)
    lab = LabResult(tuple(trace), "char-bpe", "内置语料")
    settings = {"tok.train.algo": "char-bpe", "tok.train.vocab": 450, "lang": "zh",
                "attn.view": "masks", "tok.train.k": 7}  # fmt: skip
    pack = tmp_path / "lesson.zip"
    pack.write_bytes(write_pack(settings, TokenizerBundle(tokenizer, "字符级 BPE，450", lab)))

    browser.open("", query="lang=en", wait_text="Lesson pack")
    page = browser.page
    page.set_input_files(UPLOAD, str(pack))
    browser.wait_idle("课程包已打开")  # the pack switched the language to Chinese
    assert not browser.exceptions()
    browser.screenshot("pack-restored")

    page.get_by_role("link", name="训练分词器").first.click()
    browser.wait_idle("已执行的合并次数")  # the merge scrubber, replayed without training
    assert not browser.exceptions()
    assert page.get_by_role("combobox", name="算法").input_value() == "字符级 BPE"
    assert page.get_by_text(f"经过 {len(trace)} 步").count() >= 1
    browser.screenshot("pack-lab")

    page.get_by_role("link", name="总览").first.click()
    browser.wait_idle("下载课程包")
    with page.expect_download() as info:
        page.get_by_role("button", name="下载课程包").click()
    download = info.value
    assert download.suggested_filename == "embedding-explorer-lesson.zip"
    download.save_as(tmp_path / "again.zip")
    again = read_pack((tmp_path / "again.zip").read_bytes())
    assert {k: again.settings[k] for k in settings} == settings
    assert again.tokenizer.name == "字符级 BPE，450" and len(again.tokenizer.lab.trace) == len(
        trace
    )
    assert again.tokenizer.tokenizer.encode("猫 and 🙂") == tokenizer.encode("猫 and 🙂")
    assert browser.foreign_requests() == []
