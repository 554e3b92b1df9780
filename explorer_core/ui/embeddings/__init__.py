"""Embeddings and positions: pages Token embeddings, Position encodings and Embedding sum.

Read in this order:

1. `calls`            the model sources (fresh, trained here, MiniLM, MiniLM + 中文 taught here)
                      resolved into one `Source`: tokenizer, embedding module and caption label;
                      the pair components.
2. `token_map`        the Token embeddings page's map: PCA of the sentence's vectors with their
                      nearest neighbours in the matrix, the neighbour table, Projector files.
3. `position_views`   the Position encodings page's main view: one scheme's table beside the
                      position similarity it gives, the metrics past the trained length.
4. `positions`        the same page's parts: RoPE up close and the table of the four schemes.
5. `texts_tokens`, `texts_positions`, `texts_sum`  each page's English and Chinese texts.
"""
