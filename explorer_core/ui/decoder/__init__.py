"""The decoder, trained in place: page "Decoder" (`lessons/train_decoder.py`, Train section).

Read in this order:

1. `calls`  the session's run (a `training.lm_job.LMPlan` through the Train section's worker,
            admission and queue), its records by kind, and the trained decoder read back from
            its folder (cached); next-token bars and continuations (cached per setting).
2. `views`  the settings, the live run (a polled fragment: loss against ln V and the bigram,
            samples newest first), the next-token bars, the saved folder and its zip.
3. `texts`  the English and Chinese texts.

The maths is `explorer_core.decoder`'s; the figures `viz.decoder`'s. The encoder-against-decoder
view of Inside the encoder (`ui.encoder.decoder_views`) opens the saved folder as a model on
this machine.
"""
