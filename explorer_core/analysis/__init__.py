"""Looking at what a model computes: similarity, maps of vectors, positions, the guided lesson.

Read in this order:

1. `similarity`  sentence vectors with any encoder, cosine matrix, nearest neighbours, pair scores.
2. `projection`  a 2-D PCA map of many vectors and nearest neighbours by cosine.
3. `positions`   what the Position encodings page plots: similarity of positions, RoPE's rotation,
                 its spectrum and its decay with distance.
4. `lesson`      the guided lesson: one sentence through the whole path, one step per screen.
5. `quiz`        predict, then reveal: questions built from the data a page shows, and grading.
6. `comparison`  the lexical baseline, fresh, trained and pretrained encoders on the same test
                 pairs (Spearman per language, mean ± sd over seeds): Train page and benchmark.
7. `experiment`  the class experiment's results: one per run (Spearman and [UNK] share per
                 language), summarised per tokenizer.
8. `encoder`     reading a layer trace (bert.trace): update sizes, top FFN neurons, the token ×
                 layer grid, two texts' cosine per layer, a causal edit's reach, the logit lens.
9. `contributions` who wrote into a vector: attention weights, Kobayashi et al. 2020 (weight ×
                 transformed value) and 2021 (with residual and LayerNorm).
10. `contexts`   one word in many sentences (Ethayarajh 2019): self-similarity per layer against
                 the anisotropy baseline; the shipped sentence sets.
11. `objectives` MLM, causal LM and ELECTRA on one sentence: which positions carry a loss, what
                 each token may see (the encoder-against-decoder view).

Every function returns plain data (frozen dataclasses, DataFrames, arrays); `explorer_core.viz`
draws them. Below: `bert`, `inputs`, `training`.
"""
