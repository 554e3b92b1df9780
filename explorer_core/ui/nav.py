"""The app's pages in one list: `app.py` builds the navigation from it and the tests visit each.

Pages whose file does not exist yet are left out of the navigation (a test checks that, once the
lessons are all built, every listed file exists).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LESSON_FILE = "lessons/lesson.py"  # the guided lesson that presentation mode offers


@dataclass(frozen=True)
class PageSpec:
    section: str  # catalogue key of the navigation section
    file: str  # path relative to the project root
    title: str  # catalogue key of the page title
    icon: str  # a material icon (the machine has no emoji font)
    url_path: str  # what follows the host in the browser; "" for the home page at /

    @property
    def path(self) -> Path:
        return ROOT / self.file


PAGES: tuple[PageSpec, ...] = (
    PageSpec("app.section.start", "lessons/home.py", "home.nav", ":material/home:", ""),
    PageSpec("app.section.start", LESSON_FILE, "lesson.nav", ":material/school:", "lesson"),
    PageSpec(
        "app.section.tokenize",
        "lessons/tokenizer_train.py",
        "tok.train.nav",
        ":material/model_training:",
        "train-tokenizer",
    ),
    PageSpec(
        "app.section.tokenize",
        "lessons/tokenizer_encode.py",
        "tok.encode.nav",
        ":material/segment:",
        "text-to-ids",
    ),
    PageSpec(
        "app.section.embed",
        "lessons/embed_tokens.py",
        "emb.tokens.nav",
        ":material/grid_on:",
        "token-embeddings",
    ),
    PageSpec(
        "app.section.embed",
        "lessons/embed_positions.py",
        "emb.pos.nav",
        ":material/timeline:",
        "position-encodings",
    ),
    PageSpec(
        "app.section.embed",
        "lessons/embed_sum.py",
        "emb.sum.nav",
        ":material/add_circle:",
        "embedding-sum",
    ),
    PageSpec(
        "app.section.attend",
        "lessons/sequence_models.py",
        "seq.nav",
        ":material/linear_scale:",
        "sequence-models",
    ),
    PageSpec(
        "app.section.attend",
        "lessons/attention.py",
        "attn.nav",
        ":material/hub:",
        "attention",
    ),
    PageSpec(
        "app.section.attend",
        "lessons/encoder.py",
        "enc.nav",
        ":material/stacks:",
        "inside-the-encoder",
    ),
    PageSpec(
        "app.section.attend",
        "lessons/bert_inputs.py",
        "inputs.nav",
        ":material/masked_transitions:",
        "bert-inputs",
    ),
    PageSpec(
        "app.section.train",
        "lessons/train_model.py",
        "train.nav",
        ":material/fitness_center:",
        "train-model",
    ),
    PageSpec(
        "app.section.train",
        "lessons/train_decoder.py",
        "dec.nav",
        ":material/edit_note:",
        "decoder",
    ),
    PageSpec(
        "app.section.train",
        "lessons/similarity.py",
        "sim.nav",
        ":material/compare_arrows:",
        "similarity",
    ),
)


def available_pages() -> list[PageSpec]:
    """The listed pages whose files exist, in navigation order."""
    return [page for page in PAGES if page.path.is_file()]
