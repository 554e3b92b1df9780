"""Every page's settings, declared once as data: key, default, kind, range or choices.

A page takes its defaults (`defaults(PAGE)`) and its widgets' URL binding, range and choices
(`bind(key)`) from this table; the lesson pack stores and restores exactly the keys declared here
(`declared_keys()`) and checks each value against its declared kind (`examples()`). Nothing reads
the pages' source. Buttons, uploads and downloads are actions, not settings: they are not
declared, so a pack never holds them (Streamlit raises when their keys are set through the
session). tests/test_page_settings.py runs every page and checks that each widget it binds is
declared here, so the table cannot drift from the pages.

A default written in the UI language is declared by its catalogue key (`text="sim.default_a"`):
its kind is text, its value the catalogue's in the current language. A page opens with
`init_page`: a default text the learner has not touched follows a language switch
(`follow_language`); text they typed, restored or opened from a link stays. A model source whose
default is MiniLM declares `zh=TAUGHT`: in a Chinese UI, once MiniLM + 中文 has been built on
this install, the page opens on that model instead (a learner's own choice, in the session or a
link, still wins: a default only fills a key the session does not hold yet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from explorer_core.bert.config import (
    POOLING_MODES,
)  # not bert.pooling: the home page needs no torch
from explorer_core.files import taught_model
from explorer_core.tokenization import ALGORITHMS
from explorer_core.training.presets import PRESETS
from explorer_core.ui.export import FORMAT_KEY, IMAGE_FORMATS
from explorer_core.ui.i18n import LANG_KEY, LANGUAGES, current_language, t
from explorer_core.ui.state import bound, init

# subtle: declared here, not imported from ui.tokenizer_lab.calls: that pulls in the tokenizer
# trainers and numba (~0.3 s), and every first page of a fresh server (the home page's lesson-pack
# section reads these declarations) paid it before anything was drawn.
MAX_VOCAB = 20_000  # the Tokenizer Lab's largest vocabulary
SEEDS = (0, 1_000_000)
STEPS = (1, 100_000)  # a phase's steps, as the Train form takes them (ui.training.form.STEPS)
TINY = PRESETS["tiny"]
TAUGHT = "taught"  # the model source MiniLM + 中文, taught here (ui.pretrained.taught)
OPENED = "opened"  # a model opened from this machine: a Hub name in the cache, or a folder
SOURCES = ("fresh", "trained", "pretrained", TAUGHT, OPENED)  # the model pages' sources
MODEL_REF = "model"  # the opened model's Hub name or folder, shared by every page (ui.models)
# widgets whose value is copied into a declared setting (ui.models.picker: the box -> MODEL_REF);
# the widget's own key is not a setting of its own
WIDGET_MIRRORS = {"models.box": MODEL_REF}


@dataclass(frozen=True)
class Setting:
    """One setting: its session key, default, and the values its widget allows."""

    key: str
    default: Any = None  # a literal (its type is the setting's kind); None with `text`
    text: str | None = None  # catalogue key of a default in the UI language (kind: text)
    span: tuple[float, float] | None = None  # (min, max) of a slider or number box
    choices: tuple[Any, ...] | None = None  # the codes a select slider or selector offers
    zh: Any = None  # the default in a Chinese UI once the taught model is built (TAUGHT)

    def __post_init__(self) -> None:
        if (self.default is None) == (self.text is None):
            raise ValueError(f"{self.key}: give either a default or a catalogue text")
        if self.zh is not None and self.zh not in (self.choices or ()):
            raise ValueError(
                f"{self.key}: its Chinese default {self.zh!r} is not one of its choices"
            )

    @property
    def example(self) -> Any:
        """A value of the setting's kind, for checking a pack ("" for any text)."""
        return "" if self.text is not None else self.default

    def value(self) -> Any:
        """The default now: a translated text in the current UI language; in a Chinese UI, `zh`
        once MiniLM + 中文 has been built on this install (a cheap check: two stat calls)."""
        if self.text is not None:
            return t(self.text)
        if self.zh is not None and current_language() == "zh" and taught_model.built_folder():
            return self.zh
        return self.default


def _table(*settings: Setting) -> dict[str, Setting]:
    return {s.key: s for s in settings}


S = Setting
PAGES: dict[str, dict[str, Setting]] = {
    "lessons/tokenizer_train.py": _table(
        S("tok.train.source", "builtin", choices=("builtin", "paste", "upload")),
        S("tok.train.lang", "mixed", choices=("mixed", "en", "zh")),
        S("tok.train.paste", ""),
        S("tok.train.algo", "byte-bpe", choices=tuple(ALGORITHMS)),
        S("tok.train.vocab", 1000, span=(2, MAX_VOCAB)),
        S("tok.train.k", 0),  # the merge scrubber: its range is the trained tokenizer's merges
        S("tok.train.play", False),
        S("tok.train.all", False),
        S("tok.train.probe", text="tok.train.probe.default"),
        S("tok.train.predict", False),
    ),
    "lessons/tokenizer_encode.py": _table(
        S("tok.encode.text", text="tok.encode.default_text"),
        S("tok.encode.source", "bert"),  # the first available tokenizer: bert, lab or ...
        S("tok.encode.specials", False),
        S("tok.encode.compare", True),
    ),
    "lessons/embed_tokens.py": _table(
        S("emb.tokens.text", text="emb.tokens.default_text"),
        S("emb.tokens.source", "pretrained", choices=SOURCES, zh=TAUGHT),
        S("emb.tokens.dim", 64, choices=(16, 32, 64, 128)),
        S("emb.tokens.seed", 0, span=(0, 10_000)),
        S("emb.tokens.pick", 1),  # a token position: its range is the sentence
        S("emb.tokens.map", True),
        S("emb.tokens.k", 5, span=(1, 10)),
    ),
    "lessons/embed_positions.py": _table(
        S("emb.pos.length", 128, span=(16, 512)),
        S("emb.pos.dim", 64, choices=(8, 16, 32, 64, 128, 256)),
        S("emb.pos.base", 10000, choices=(100, 1000, 10_000, 100_000, 1_000_000)),
        S("emb.pos.clip", 4, span=(1, 32)),
        S("emb.pos.trained", 64, span=(8, 512)),
        S("emb.pos.scheme", "sinusoidal", choices=("sinusoidal", "learned", "relative", "rotary")),
        S("emb.pos.rope", False),  # three more charts: on a page switch, ~170 ms of the browser
        S("emb.pos.pair", 4),  # a frequency pair: its range is the width (dim // 2 - 1)
        S("emb.pos.order_a", text="emb.pos.default_order_a"),  # word order: 狗咬人
        S("emb.pos.order_b", text="emb.pos.default_order_b"),  # 人咬狗
    ),
    "lessons/embed_sum.py": _table(
        S("emb.sum.a", text="emb.sum.default_a"),
        S("emb.sum.b", text="emb.sum.default_b"),
        S("emb.sum.source", "pretrained", choices=SOURCES, zh=TAUGHT),
        S("emb.sum.seed", 0, span=(0, 10_000)),
        S("emb.sum.pick", 1),  # a token position: its range is the pair
        S("emb.sum.dims", 12, span=(4, 64)),  # at most the model's hidden size
        S("emb.sum.overview", True),
    ),
    "lessons/attention.py": _table(
        S("attn.source", "pretrained", choices=SOURCES, zh=TAUGHT),
        S("attn.mode", "single", choices=("single", "pair", "batch")),
        S("attn.view", "head", choices=("head", "overview", "masks")),
        S("attn.text", text="attn.default_text"),
        S("attn.a", text="attn.default_a"),
        S("attn.b", text="attn.default_b"),
        S("attn.batch", text="attn.default_batch"),
        S("attn.causal", False),
        S("attn.row", 0),  # a row of the batch
        S("attn.layer", 1),  # 1 .. the model's layers
        S("attn.head", 1),  # 1 .. the model's heads
        S("attn.query", 0),  # token positions: their range is the sentence
        S("attn.key", 0),
        S("attn.predict", False),
    ),
    "lessons/sequence_models.py": _table(
        S("seq.text", text="seq.default_text"),
        S("seq.view", "states", choices=("states", "steps", "gradient", "recall")),
        S("seq.window", 3, span=(2, 8)),  # the n-gram window's n: it reads n - 1 tokens
        S("seq.seed", 0, span=SEEDS),
        S("seq.predict", False),
    ),
    "lessons/encoder.py": _table(
        S("enc.source", "pretrained", choices=SOURCES, zh=TAUGHT),
        S("enc.view", "layer",
          choices=("layer", "mixing", "stack", "contexts", "decoder", "families")),
        S("enc.text", text="enc.default_text"),
        S("enc.layer", 1),  # 1 .. the model's layers
        S("enc.token", 1),  # a token position: its range is the sentence
        S("enc.edit", text="enc.default_edit"),  # the decoder view's edited sentence
        S("enc.set", "bank", choices=("bank", "apple", "da", "own"), zh="apple"),  # 苹果
        S("enc.own", text="enc.default_own"),
        S("enc.word", text="enc.default_word"),
        S("enc.standardize", False),
        S("enc.en", "The weather is nice today."),  # MiniLM + 中文: a sentence and its translation
        S("enc.zh", "今天天气很好。"),
        S("enc.predict", False),
    ),
    "lessons/bert_inputs.py": _table(
        S("inputs.text", text="inputs.default_text"),
        S("inputs.seed", 0, span=SEEDS),
        S("inputs.draws", 1000, choices=(10, 100, 1000, 5000)),
        S("inputs.nsp_source", "en", choices=("en", "zh", "own")),
        S("inputs.nsp_seed", 0, span=SEEDS),
        S("inputs.pairs", text="inputs.default_pairs"),
        S("inputs.wwm_text", text="inputs.default_wwm_text"),  # whole-word masking's text
        S("inputs.max_len", 24, span=(8, 64)),
        S("inputs.example", 0),  # a pair of the list
        S("inputs.predict", False),
    ),
    "lessons/train_model.py": _table(
        S("train.kind", "model", choices=("model", "chinese")),  # ui/training/chinese.py
        S("train.data", "builtin", choices=("builtin", "upload")),
        S("train.tok", "train", choices=("lab", "train", "vocab")),  # "lab" when one is shared
        S("train.algo", "wordpiece", choices=tuple(ALGORITHMS)),
        S("train.vocab_size", 2000),
        S("train.lower", True),
        S("train.preset", "tiny", choices=tuple(PRESETS)),
        S("train.edit", False),
        S("train.max_length", 48, span=(8, 256)),
        S("train.objective", "pretrain+finetune"),
        S("train.pre_steps", 100, span=STEPS),
        S("train.fine_steps", 300, span=STEPS),
        S("train.budget", 90, span=(0, 3600)),
        S("train.seed", 0, span=SEEDS),
        S("train.whole_word", False),  # pre-training masks whole words (jieba's, in Chinese)
        # ui.training.comparison; TAUGHT is offered once built. No `zh=TAUGHT`: the default
        # here is a fresh model (the page teaches training from scratch), not MiniLM
        S("train.start_from", "fresh", choices=("fresh", "session", "minilm", TAUGHT)),
        # the model sizes: the chosen preset's (Tiny's here)
        S("train.hidden", TINY.hidden_size, span=(8, 1024)),
        S("train.layers", TINY.num_hidden_layers, span=(1, 12)),
        S("train.heads", TINY.num_attention_heads, span=(1, 16)),
        S("train.ffn", TINY.intermediate_size, span=(8, 4096)),
        S("train.batch", TINY.batch_size, span=(1, 512)),
        S("train.lr", TINY.learning_rate, span=(1e-5, 0.5)),
    ),
    "lessons/train_decoder.py": _table(
        S("dec.lang", "en", choices=("en", "zh", "both")),  # the page follows the UI language
        S("dec.seconds", 60.0, span=(1.0, 600.0)),  # the core tunes its defaults for a minute
        S("dec.seed", 0, span=SEEDS),
        S("dec.scale", True),  # embedding × √d_model (the tutorial's; GPT-2 does not)
        S("dec.tie", True),  # one matrix for the embedding and the output layer
        S("dec.prompt", text="dec.default_prompt"),
        S("dec.temperature", 1.0, span=(0.05, 2.0)),  # 0 is not offered: it divides
        S("dec.top_k", 0, span=(0, 50)),  # 0: off
        S("dec.top_p", 1.0, span=(0.05, 1.0)),
        S("dec.new_tokens", 40, span=(1, 200)),
    ),
    "lessons/similarity.py": _table(
        S("sim.a", text="sim.default_a"),
        S("sim.b", text="sim.default_b"),
        S("sim.pooling", "mean", choices=(*POOLING_MODES, "own")),  # own: the model's authors'

        S("sim.view", "matrix", choices=("matrix", "neighbours", "pairs")),
        S("sim.model", "trained", choices=("trained", "fresh", "minilm", TAUGHT, OPENED)),
        S("sim.list", text="sim.default_list"),
        S("sim.query", text="sim.default_query"),
        S("sim.k", 5, span=(1, 200)),  # at most the sentences in the list
        S("sim.split", "dev", choices=("dev", "test")),
    ),
    "lessons/lesson.py": _table(
        S("lesson.step", 1),
        S("lesson.token", 2),
        S("lesson.layer", 1),
        S("lesson.head", 3),  # a previous-token head of MiniLM
        S("lesson.text", text="lesson.default_text"),
        S("lesson.other", text="lesson.default_other"),
        S("lesson.third", text="lesson.default_third"),
        # MiniLM (or MiniLM + 中文 for a Chinese lesson, ui.lesson.calls.model_key), or the model
        # this session opened (offered only once one is)
        S("lesson.model", "minilm", choices=("minilm", OPENED)),
    ),
    "lessons/home.py": {},
}
# the app's own settings, drawn in the sidebar of every page
APP = _table(
    S(LANG_KEY, "en", choices=tuple(LANGUAGES)),
    S(FORMAT_KEY, IMAGE_FORMATS[0], choices=tuple(IMAGE_FORMATS)),
    S(MODEL_REF, ""),  # empty: none opened yet
)


def declared() -> dict[str, Setting]:
    """Every declared setting of the app and its pages, by key."""
    out = dict(APP)
    for table in PAGES.values():
        out.update(table)
    return out


def declared_keys() -> frozenset[str]:
    """The keys a lesson pack stores and restores."""
    return frozenset(declared())


def examples() -> dict[str, Any]:
    """A value of each setting's kind (the default, or "" for a text), for checking a pack."""
    return {key: setting.example for key, setting in declared().items()}


def choices(key: str) -> tuple[Any, ...]:
    """The codes the declared setting `key` offers (for its selector and `state.url_synced`)."""
    found = declared()[key].choices
    if found is None:
        raise KeyError(f"{key} declares no choices")
    return found


def defaults(page: str) -> dict[str, Any]:
    """The page's defaults now (translated texts in the current UI language)."""
    return {key: setting.value() for key, setting in PAGES[page].items()}


GIVEN_TEXT = "_default_text."  # + key: the default text init_page gave the key (untouched since)


def follow_language(page: str) -> None:
    """An untouched default text follows the UI language; text the learner typed stays.

    A text setting of `page` that still holds the default text `init_page` gave it (in another
    language) gets the default in the current language, e.g. "The cat sat on the mat." becomes
    "猫坐在垫子上。" when the learner switches to 中文. A value typed, restored from a pack or
    given by a link (`?key=` sets the widget after its default was given) differs from the one
    given, so it stays, even when it happens to be another language's default.
    # subtle: the new text is *set*, not deleted for the widget to fill in: a text box keeps
    # what the browser holds unless the server sets its value (Streamlit's set_value), and the
    # box's id does not change with its default. Setting it makes Streamlit log its "default value
    # but also set via the Session State API" warning once per process, on a switch only.
    """
    for key, setting in PAGES[page].items():
        given = st.session_state.get(GIVEN_TEXT + key)
        if setting.text is None or given is None or st.session_state.get(key) != given:
            continue
        now = t(setting.text)
        if now != given and key not in st.query_params:
            st.session_state[key] = st.session_state[GIVEN_TEXT + key] = now


def init_page(page: str, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A page's first call: untouched default texts follow the language (`follow_language`),
    every key the session lacks gets its default (`state.init`; `extra` adds or replaces
    defaults the page works out itself); returns the defaults."""
    follow_language(page)
    found = defaults(page) | dict(extra or {})
    texts = [k for k, s in PAGES[page].items() if s.text and k not in st.session_state]
    init(found)
    for key in texts:
        st.session_state[GIVEN_TEXT + key] = found[key]
    return found


def bind(
    key: str, options: Sequence[Any] = (), *, default: Any = None,
    span: tuple[float, float] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Widget arguments for the declared setting `key` (see `state.bound`): its default, URL
    binding, range and choices from the table. `span` narrows the range to what the page can
    show now (the sentences of a list); `default` replaces the declared one (kept inside it)."""
    setting = declared()[key]
    value = setting.value() if default is None else default
    return bound(key, {key: value}, options, span=span or setting.span, choices=setting.choices)
