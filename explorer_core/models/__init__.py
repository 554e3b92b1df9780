"""Opening a model the user brings, safely: where a name points, what may be loaded, how its
authors make a sentence vector, what is already on this machine, and how many stay in memory.

Read in this order:

1. `settings`  the environment's say (EXPLORER_MODEL_DIRS, EXPLORER_ALLOW_DOWNLOADS,
               EXPLORER_MODEL_MAX_MB, the Hugging Face cache's place) and `ModelRefused`, the one
               error: a ValueError whose message is one line saying what to do.
2. `header`    parameters and bytes from a safetensors file's JSON header, no tensor read.
3. `card`      the model card's YAML front matter: languages, license, pipeline tag.
4. `checks`    what a folder must pass before loading: inside the allowed roots (symlinks and
               `..` resolved), config.json, no remote code, safetensors weights, a supported
               family, weights under the memory setting.
5. `download`  huggingface_hub's snapshot_download into the cache, with a byte-progress callback.
6. `locate`    a reference (a Hub name, `org/name@revision`, or a folder path) to a checked
               folder: `locate(reference, allow_download=False, progress=None) -> LocatedModel`.
7. `pipeline`  the sentence-transformers files read into a frozen `SentencePipeline` (pooling,
               prompts, Dense, Normalize, max length), with notes when a default was chosen.
8. `sentence`  `pool` and `finish`: every pooling mode exactly as sentence-transformers 6.2
               computes it, then Dense and Normalize.
9. `catalog`   `scan()`: every model on this machine with its facts, refused ones with the reason.
10. `memory`   `ModelMemory`: one copy per model for the whole server, least recently used
               evicted under a byte budget; bytes per model for the health figures.

Below: `runtime` (settings) and `bert.pooling` (mean and max are reused). Nothing here draws,
imports streamlit, or runs a model's own code; only `sentence` imports torch (importing this
package does not).
"""

from explorer_core.models.catalog import CatalogEntry, scan
from explorer_core.models.locate import LocatedModel, locate
from explorer_core.models.memory import ModelMemory, choose_evictions
from explorer_core.models.pipeline import SentencePipeline, read_pipeline
from explorer_core.models.settings import SUPPORTED_MODEL_TYPES, ModelRefused

__all__ = [
    "SUPPORTED_MODEL_TYPES",
    "CatalogEntry",
    "LocatedModel",
    "ModelMemory",
    "ModelRefused",
    "SentencePipeline",
    "choose_evictions",
    "locate",
    "read_pipeline",
    "scan",
]
