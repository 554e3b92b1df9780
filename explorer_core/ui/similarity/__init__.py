"""Similarity (page `lessons/similarity.py`): cosine of sentences with the session's models.

Read in this order:

1. `calls`        MiniLM + 中文 (taught here) as an encoder, and the model shown when the chosen
                  one is not available.
2. `views`        the three heavier views, one at a time: the cosine matrix, nearest neighbours
                  of a query, predicted vs gold scores on the dev/test pairs.
3. `texts`        the page's English and Chinese texts.
"""
