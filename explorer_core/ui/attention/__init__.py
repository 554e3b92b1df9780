"""Attention and BERT inputs: pages `lessons/attention.py` and `lessons/bert_inputs.py`.

Read in this order:

1. `calls`          the model sources (fresh, trained here, MiniLM) and cached runs with every
                    attention weight.
2. `views`          the Attention page's views (one `st.fragment`): query/key pickers and a
                    clicked heatmap cell, one head with the arithmetic of one weight, every layer
                    and head, the masks, the downloads.
3. `inputs_views`   the BERT inputs page's views: one MLM draw with the shares over many draws,
                    the from-scratch tutorial's NSP layout beside BERT's.
4. `texts`, `texts_inputs`  the two pages' English and Chinese texts.
"""
