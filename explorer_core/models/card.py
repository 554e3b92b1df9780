"""The model card's front matter: the YAML block between the first two ``---`` lines of README.md.

The Hub reads ``language``, ``license``, ``pipeline_tag`` (and more) from it; so do we. ``language``
may be one code or a list, so it is always returned as a tuple.

Worked example::

    ---
    language: [en, zh]
    license: apache-2.0
    pipeline_tag: sentence-similarity
    ---
    # My model
    -> CardFacts(languages=("en", "zh"), license="apache-2.0", pipeline_tag="sentence-similarity")
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml  # PyYAML: a dependency of huggingface_hub and transformers, so always installed

MAX_CARD_BYTES = 200_000  # front matter sits at the top; a card is rarely longer than this
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's safe loader when built with it


@dataclass(frozen=True)
class CardFacts:
    languages: tuple[str, ...] = ()
    license: str = ""
    pipeline_tag: str = ""
    text: str = ""  # the card's prose after the front matter (read for prompt prefixes)


def split_card(text: str) -> tuple[dict, str]:
    """(front matter as a dict, the prose after it); ``({}, text)`` when there is none or it is
    broken.

    >>> split_card("---\\nlanguage: zh\\nlicense: mit\\n---\\n# Title")
    ({'language': 'zh', 'license': 'mit'}, '# Title')
    >>> split_card("# no front matter")
    ({}, '# no front matter')
    """
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return {}, text
    for end, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            try:
                data = yaml.load("\n".join(lines[1:end]), Loader=LOADER)
            except yaml.YAMLError:
                return {}, text
            return (data if isinstance(data, dict) else {}), "\n".join(lines[end + 1 :])
    return {}, text


def _as_tuple(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        return tuple(str(item) for item in value if item is not None)
    return (str(value),)


def read_card(folder: Path) -> CardFacts:
    """What ``folder/README.md`` says about itself; empty facts when there is no card."""
    path = folder / "README.md"
    if not path.is_file():
        return CardFacts()
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read(MAX_CARD_BYTES)
    data, body = split_card(text)
    return CardFacts(
        languages=_as_tuple(data.get("language")),
        license=str(data.get("license") or ""),
        pipeline_tag=str(data.get("pipeline_tag") or ""),
        text=body,
    )
