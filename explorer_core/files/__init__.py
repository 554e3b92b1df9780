"""Files a learner takes home or hands out (CSV/JSON/Projector exports and lesson packs), and the
built-in tokenizers the server keeps on disk.

Read in this order:

1. `export`         pure functions from data to deterministic bytes (CSV, JSON, Projector TSV, zip).
2. `tables`         the tables and records behind every page's download buttons.
3. `lab_record`     the Tokenizer Lab's trace, candidates and curve as JSON, and back.
4. `pack_settings`  which session values a lesson pack stores.
5. `lesson_pack`    settings, trained tokenizer and trained model in one zip; reading validates
                    everything before applying anything.
6. `tokenizer_cache` the built-in tokenizers, trained once per install and read back from disk.
7. `taught_model`   MiniLM + 中文, taught here: its folder, built once per install.
8. `taught_build`   the server's own build of it, in the background: lock, idle wait, watch.

Below: every other core package but `viz`; nothing here draws.
"""
