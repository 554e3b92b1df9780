"""Sequence models before attention, on one sentence with numbers from one code: issue #36.

Read in this order:

1. `config`      the frozen configs: `RecurrentConfig` (torch's field names), `NGramConfig`,
                 `AttentionConfig`.
2. `base`        what every model returns (`SequenceOutput`), seeded U(-1/√fan, 1/√fan) weights,
                 `RecurrentCell`: torch's weight_ih / weight_hh / bias_ih / bias_hh.
3. `rnn_cell`    h_t = tanh(W_ih x_t + W_hh h_(t-1) + b) (or the tutorial's σ).
4. `lstm_cell`   gates i, f, g, o and the cell state c, returned per step.
5. `gru_cell`    gates r, z and the candidate n, returned per step.
6. `runner`      a plain Python loop over the tokens, one direction or both: (B, T, d) / (B, T, 2d).
7. `recurrent`   `RecurrentModel`: layers × directions of cells, loading torch's weights by name;
                 `FusedRecurrent`: the same function run by torch.nn.RNN / LSTM / GRU.
8. `ngram`       Bengio et al.'s window model: the n - 1 tokens before t, one tanh layer.
9. `attention`   one self-attention layer: `explorer_core.bert.attention.BertSelfAttention`.
10. `gradients`  ‖∂h_L/∂x_t‖ against the distance L - t (autograd).
11. `cost`       sequential steps (counted from the run) and path lengths.
12. `recall`     a task trained in place: name the token k steps back; accuracy against k.
13. `compare`    the lesson's six models on one sentence from one seed.

Below: `explorer_core.bert` (the attention layer). Above: the CLI (`sequence-models`) and bench.
"""
