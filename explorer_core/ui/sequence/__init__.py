"""Sequence models before attention: page `lessons/sequence_models.py` (issue #36).

Read in this order:

1. `calls`   the sentence's tokens, the six models on it (`explorer_core.sequence.compare`), the
             timed steps, and the recall task trained in a thread of the server.
2. `views`   hidden states with gates and the n-gram window, steps and path length, gradient
             over distance (behind the Predict-first question), the recall task's accuracy.
3. `texts`   the page's English and Chinese texts.
"""
