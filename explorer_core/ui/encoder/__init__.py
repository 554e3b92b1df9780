"""Inside the encoder: page `lessons/encoder.py` (and one screen of the guided lesson).

Read in this order:

1. `calls`   the model sources (every model page's: `ui.models.sources`), the
             sentence checks, and the cached traces of every intermediate of every layer
             (`bert.trace`) with the analyses built on them (`analysis.encoder`).
2. `views`   within one layer: every number (also the guided lesson's screen), who wrote into
             a vector, the "Predict first" question; the downloads.
3. `layers_views`  across layers and sentences: layer by layer, one word in many contexts.
4. `decoder_views`  encoder against decoder: whose weights (a decoder opened from this machine,
             or an encoder under a causal mask), an edit under both masks, MLM / causal LM /
             ELECTRA side by side, a causal mean's shares, a decoder's sentence vectors.
5. `texts`, `texts_decoder`  the page's English and Chinese texts.
"""
