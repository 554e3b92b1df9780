"""The Tokenizer Lab (page "Train a tokenizer", `lessons/tokenizer_train.py`).

Read in this order:

1. `calls`        cached tokenizer training keyed on (algorithm, vocab size, corpus hash), and the
                  checks of a learner's corpus (`CorpusProblem` carries a text key).
2. `views`        step k in the URL, "which pair merges next?", the lab's downloads.
3. `replay`       after training: the scrubber through the merges (with play) and every view of
                  step k; `final_views` for tokenizers without a merge replay.
4. `texts`, `texts_trace`  the page's English and Chinese texts (the trace's own in the second).
"""
