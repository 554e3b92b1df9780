"""Model choice, for every page with real numbers: one family folder.

Read in this order:

1. `sources`   the model sources every page offers (fresh, trained here, MiniLM, MiniLM + 中文,
               and a model opened from this machine: a Hub name in the Hugging Face cache or an
               allowed folder), resolved into one `ModelSource`; opened models are cached once per
               server for every session (least recently used first out).
2. `picker`    the widgets: the source's segmented control and, for an opened model, the list of
               the models on this machine, a box for a Hub name or a folder, and the download's
               progress bar where the server allows downloads.
3. `labels`    what a chart calls each vocabulary id (a byte-level BPE's " the", not "Ġthe").
4. `differ`    "How encoders differ": the models on this machine side by side, switch by switch.
5. `texts`     the English and Chinese texts.

The maths is the core's: `explorer_core.models` (locate, catalog, sentence pipeline, open) and
`explorer_core.bert` (one encoder, a few switches per family).
"""
