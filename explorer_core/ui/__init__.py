"""The only streamlit-aware part of the package: the app's shell, then one folder per lesson family.

The shell (what every page uses; it knows no lesson), read in this order:

1. `i18n`, `texts/`     `t(key)`: every text the app shows, in English and Chinese; `texts/` holds
                        the shell's own, each family keeps its texts in its folder (`texts*.py`).
2. `state`              session keys, links that restore a view (`bound`, `share_link`).
   `settings`           every page's settings declared once (key, default, kind, range or
                        choices): pages take their defaults and widgets from it (`bind`), the
                        lesson pack stores exactly its keys.
3. `nav`, `present`, `chrome`  the page list, presentation mode, Streamlit's own texts translated.
4. `export`             `show_chart` and the download buttons every page uses.
5. `quiz`               "Predict first": a question, the learner's guess, Reveal and the score.
6. `pretrained`         real MiniLM, loaded once per server, shared read-only.
7. `pack`               lesson packs (the home page's upload and download).
8. `throttle`, `warmup` a session flooding the server waits; at most cores+1 page scripts run at
                        once; the once-per-server warm-up of modules, tokenizers and MiniLM.

The lesson families, one folder each with its cached calls, its views and its texts (each
`__init__` says what it holds and in what order to read it):

- `lesson/`         the guided lesson (Start)
- `tokenizer_lab/`  Train a tokenizer (Tokenize)
- `tokens/`         Text -> tokens -> ids (Tokenize)
- `embeddings/`     Token embeddings, Position encodings, Embedding sum (Embed)
- `attention/`      Attention, BERT inputs (Attend)
- `training/`       Train the model and its comparison (Train)
- `similarity/`     Similarity (Train)

A family imports from the shell; across families, only the guided lesson borrows the Attention
page's clicked cell and the embeddings' pair components, and Similarity reads the session's models
from `training`. The shell imports no family, except the warm-up, which fills their caches.
"""
