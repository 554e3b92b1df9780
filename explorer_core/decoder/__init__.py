"""A GPT-style decoder trained in place: the app's one readable encoder with GPT-2's switches.

The model is not a second implementation: `explorer_core.bert.causal_lm.BertForCausalLM` is the
encoder of `explorer_core.bert` under the causal mask (`causal=True`, pre-LN, learned positions,
no segments, a final LayerNorm) with a language-model head. This package teaches it.

Read in this order:

1. `config`     `LMTrainConfig`: language, budget (seconds or steps), seed, sizes, optimiser.
2. `baselines`  the lines a loss is read against: uniform (ln V) and a count bigram (add-k).
3. `data`       `prepare_lm`: the built-in corpus, a byte-level BPE trained on it, held-out ids.
4. `sampling`   temperature, top-k, top-p: `next_token_distribution` and `generate`.
5. `train`      `train_lm`: next-token loss, AdamW, `LMRecord` per evaluation, `LMSample`s.
6. `folder`     `save_decoder` / `load_decoder`: a GPT-2 folder transformers opens as it is.
7. `pooling`    sentence vectors from a decoder (mean, SGPT's weighted mean, last token) and
                `causal_mean_shares`, how much each token can shape a causal mean.

Below: `bert` (the model), `tokenization` (byte-level BPE), `inputs` (the corpus).
"""

from explorer_core.decoder.baselines import bigram_loss, uniform_loss
from explorer_core.decoder.config import LMTrainConfig
from explorer_core.decoder.data import LMData, prepare_lm
from explorer_core.decoder.folder import load_decoder, save_decoder
from explorer_core.decoder.pooling import causal_mean_shares, decoder_pooling
from explorer_core.decoder.sampling import TokenDistribution, generate, next_token_distribution
from explorer_core.decoder.train import LMRecord, LMResult, LMSample, train_lm

__all__ = [
    "LMData", "LMRecord", "LMResult", "LMSample", "LMTrainConfig", "TokenDistribution",
    "bigram_loss", "causal_mean_shares", "decoder_pooling", "generate", "load_decoder",
    "next_token_distribution", "prepare_lm", "save_decoder", "train_lm", "uniform_loss",
]  # fmt: skip
