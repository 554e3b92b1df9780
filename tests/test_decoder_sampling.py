"""Sampling from the decoder: temperature, top-k and top-p against hand-worked examples, the
distribution the model gives, the same text for the same seed, and a sentence for bad input."""

from __future__ import annotations

import math

import pytest
import torch

from explorer_core.decoder import generate, next_token_distribution
from explorer_core.decoder.sampling import reshape
from tests.decoder_models import decoder, tokenizer

Z = torch.log(torch.tensor([0.5, 0.3, 0.2]))


def close(values, expected):
    assert [round(v, 4) for v in values.tolist()] == pytest.approx(expected, abs=1e-4)


def test_temperature_by_hand():
    """T = 2: p ∝ p^(1/2) = [0.7071, 0.5477, 0.4472], sum 1.7020 -> [0.4155, 0.3218, 0.2628];
    T = 0.5: p ∝ p² = [0.25, 0.09, 0.04], sum 0.38 -> [0.6579, 0.2368, 0.1053]."""
    close(reshape(Z), [0.5, 0.3, 0.2])
    close(reshape(Z, temperature=2.0), [0.4155, 0.3218, 0.2628])
    close(reshape(Z, temperature=0.5), [0.6579, 0.2368, 0.1053])


def test_top_k_and_top_p_by_hand():
    """top-k 2: [0.5, 0.3] / 0.8 = [0.625, 0.375, 0]; top-p 0.6: the mass before each token is
    0, 0.5, 0.8, so the first two stay; top-p 0.4: only the first; top-p 0.9 keeps all three;
    top-k 2 then top-p 0.7: among [0.625, 0.375] the mass before is 0, 0.625: both stay."""
    close(reshape(Z, top_k=2), [0.625, 0.375, 0.0])
    close(reshape(Z, top_k=1), [1.0, 0.0, 0.0])
    close(reshape(Z, top_k=50), [0.5, 0.3, 0.2])  # more than V: all stay
    close(reshape(Z, top_p=0.6), [0.625, 0.375, 0.0])
    close(reshape(Z, top_p=0.4), [1.0, 0.0, 0.0])
    close(reshape(Z, top_p=0.9), [0.5, 0.3, 0.2])
    close(reshape(Z, top_k=2, top_p=0.7), [0.625, 0.375, 0.0])
    close(reshape(Z, temperature=0.5, top_p=0.7), [0.7353, 0.2647, 0.0])  # 0.6579 < 0.7


def test_ties_go_to_the_smaller_id():
    close(reshape(torch.zeros(4), top_k=2), [0.5, 0.5, 0.0, 0.0])
    close(reshape(torch.zeros(4), top_p=0.2), [1.0, 0.0, 0.0, 0.0])  # mass before: 0, .25, ...
    close(reshape(torch.zeros(4), top_p=0.3), [0.5, 0.5, 0.0, 0.0])


def test_the_distribution_is_the_models_own():
    model, tok = decoder(), tokenizer()
    dist = next_token_distribution(model, tok, "the cat", temperature=0.7, top_k=5)
    ids = torch.tensor([tok.encode("the cat")])
    with torch.no_grad():
        logits = model(ids)[0, -1]
    assert len(dist.probabilities) == len(dist.adjusted) == len(dist.tokens) == 300
    torch.testing.assert_close(torch.tensor(dist.probabilities, dtype=torch.float64),
                               torch.softmax(logits.double(), -1))  # fmt: skip
    assert sum(dist.adjusted) == pytest.approx(1.0)
    assert sum(p > 0 for p in dist.adjusted) == 5
    best = dist.top(1)[0]
    assert best[0] == int(logits.argmax()) and dist.top(1, adjusted=True)[0][0] == best[0]
    assert dist.tokens[ord("a")] == "a"


def test_the_same_seed_gives_the_same_text():
    model, tok = decoder(), tokenizer()
    one = generate(model, tok, "the cat", max_new_tokens=12, temperature=1.5, seed=3)
    assert one == generate(model, tok, "the cat", max_new_tokens=12, temperature=1.5, seed=3)
    assert one != generate(model, tok, "the cat", max_new_tokens=12, temperature=1.5, seed=4)
    greedy = [generate(model, tok, "the cat", max_new_tokens=8, top_k=1, seed=s) for s in (0, 9)]
    assert greedy[0] == greedy[1]
    assert generate(model, tok, "the cat", max_new_tokens=0) == ""


def test_a_prompt_longer_than_the_context_keeps_its_end():
    model, tok = decoder(), tokenizer()  # 24 positions
    long = "the dog ran to the cat. " * 10
    assert len(tok.encode(long)) > 24
    text = generate(model, tok, long, max_new_tokens=30, top_k=1)
    assert isinstance(text, str) and math.isfinite(
        next_token_distribution(model, tok, long).adjusted[0]
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"prompt": ""}, "prompt is empty"), ({"prompt": "  \n"}, "prompt is empty"),
     ({"temperature": 0.0}, "temperature must be above 0"),
     ({"temperature": -1.0}, "temperature must be above 0"),
     ({"top_k": 0}, "top_k must be a whole number of at least 1"),
     ({"top_p": 0.0}, r"top_p must be in \(0, 1\]"), ({"top_p": 1.5}, r"top_p must be in")],
)  # fmt: skip
def test_bad_input_is_a_sentence(kwargs, message):
    model, tok = decoder(), tokenizer()
    prompt = kwargs.pop("prompt", "the cat")
    with pytest.raises(ValueError, match=message):
        next_token_distribution(model, tok, prompt, **kwargs)
    with pytest.raises(ValueError, match=message):
        generate(model, tok, prompt, **kwargs)
    with pytest.raises(ValueError, match="max_new_tokens"):
        generate(model, tok, "the cat", max_new_tokens=-1)
