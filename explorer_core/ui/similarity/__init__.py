"""Similarity (page `lessons/similarity.py`): cosine of sentences with the session's models.

Read in this order:

1. `views`        the three heavier views, one at a time: the cosine matrix, nearest neighbours
                  of a query, predicted vs gold scores on the dev/test pairs.
2. `texts`        the page's English and Chinese texts.
"""
