"""MiniLM + 中文, taught here, as a model source: what the pages that offer it share.

Token embeddings, Embedding sum, Attention and Similarity offer the taught model next to MiniLM
(`ui.pretrained.taught()`, None until it is built on this install). Read in this order:

1. `views`   the one line a page shows when the model has not been built yet, with the way to
             build it and a link to the Train page.
2. `texts`   its English and Chinese texts, and the model's name in both languages.
"""
