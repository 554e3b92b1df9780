"""AppTest of the Decoder page: EN and ZH, a short real run in the worker (loss against ln V and
the bigram, samples), Stop, and the next-token bars under temperature, top-k and top-p."""

from __future__ import annotations

import json

from tests.conftest import app_test
from tests.decoder_runs import decoder_result, wait_for_decoder

PAGE = "lessons/train_decoder.py"


def charts(at) -> dict:
    return {c.key: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def test_the_page_reads_in_english_and_follows_the_language_to_chinese():
    at = app_test(PAGE)
    assert not at.exception
    assert at.session_state["dec.lang"] == "en"
    assert not at.button(key="dec.start").disabled and at.button(key="dec.stop").disabled
    assert any("No decoder has trained" in i.value for i in at.info)
    assert any("layers, hidden size" in c.value for c in at.caption)
    zh = app_test(PAGE, state={"lang": "zh"})
    assert not zh.exception
    assert zh.title[0].value.startswith("训练一个解码器")
    assert zh.session_state["dec.lang"] == "zh"  # the corpus follows the app's language
    assert zh.session_state["dec.prompt"] == "今天"  # the default prompt too


def test_a_short_run_draws_its_loss_against_both_references_samples_and_bars():
    at = app_test(PAGE)
    at.number_input(key="dec.seconds").set_value(3.0).run()
    at.button(key="dec.start").click().run()
    assert not at.exception
    assert at.button(key="dec.start").disabled and not at.button(key="dec.stop").disabled
    wait_for_decoder(at)
    assert not at.exception
    assert at.session_state["dec.run"].status().state == "finished"
    loss = charts(at)["dec.loss_chart"]
    assert [d["name"] for d in loss["data"]] == ["decoder", "uniform guess (ln V)", "bigram counts"]
    uniform, bigram = loss["data"][1]["y"][0], loss["data"][2]["y"][0]
    assert bigram < uniform  # counting pairs beats guessing
    assert any("Finished after" in p.proto.text for p in at.get("progress"))
    assert any(line.value.startswith("`step ") for line in at.markdown)  # the samples' heads
    # the decoder is saved, listed as a model on this machine, and answers below
    result = at.session_state["dec.result"]
    from explorer_core.models import scan

    assert result["folder"] in [e.reference for e in scan() if not e.refused]
    assert "dec.bars_chart" in charts(at)


def test_stop_keeps_the_decoder_as_it_was():
    at = app_test(PAGE)
    at.number_input(key="dec.seconds").set_value(300.0).run()
    at.button(key="dec.start").click().run()
    run = at.session_state["dec.run"]
    import time

    deadline = time.monotonic() + 120
    while not any(type(r).__name__ == "LMRecord" for r in run.records()):
        assert time.monotonic() < deadline, "no evaluation arrived"
        time.sleep(0.5)
        at.run()
    at.button(key="dec.stop").click().run()
    wait_for_decoder(at)
    assert run.status().state == "stopped"
    assert any("Stopped after" in p.proto.text for p in at.get("progress"))
    assert at.session_state["dec.result"]["run"] == id(run)
    assert "dec.bars_chart" in charts(at)


def bars(at) -> tuple[list[float], list[float]]:
    data = charts(at)["dec.bars_chart"]["data"]
    return list(data[0]["x"]), list(data[1]["x"])


def test_the_bars_follow_temperature_top_k_and_top_p():
    at = app_test(PAGE, state={"dec.result": decoder_result()})
    assert not at.exception
    raw, kept = bars(at)
    assert raw == sorted(raw, reverse=True) and abs(sum(kept) - sum(raw)) < 0.2
    at.slider(key="dec.temperature").set_value(0.3).run()
    raw_cold, kept_cold = bars(at)
    assert raw_cold == raw and kept_cold[0] > kept[0]  # sharper: the top token gains
    at.slider(key="dec.top_k").set_value(1).run()
    _, greedy = bars(at)
    assert greedy[0] == 1.0 and all(k == 0 for k in greedy[1:])
    assert any("cut" in c.value and "(14 of the 15 shown)" in c.value for c in at.caption)
    at.slider(key="dec.top_k").set_value(0).run()
    at.slider(key="dec.temperature").set_value(1.0).run()
    at.slider(key="dec.top_p").set_value(0.05).run()
    _, nucleus = bars(at)
    assert nucleus[0] > 0 and sum(1 for k in nucleus if k > 0) < len(nucleus)
    at.button(key="dec.generate").click().run()
    assert not at.exception
    assert any(text.value.startswith(at.text_input(key="dec.prompt").value) for text in at.text)


def test_an_empty_prompt_says_so_and_keeps_the_decoder():
    at = app_test(PAGE, state={"dec.result": decoder_result()})
    at.text_input(key="dec.prompt").set_value("   ").run()
    assert not at.exception
    assert any("The prompt is empty" in w.value for w in at.warning)
    assert "dec.bars_chart" not in charts(at)
    at.text_input(key="dec.prompt").set_value("the").run()
    assert "dec.bars_chart" in charts(at)
    assert at.session_state["dec.result"] == decoder_result()


def test_a_decoder_folder_that_went_missing_is_not_offered(tmp_path):
    gone = decoder_result(tmp_path / "decoder-gone")
    at = app_test(PAGE, state={"dec.result": gone})
    assert not at.exception
    assert any("Train a decoder above" in i.value for i in at.info)
