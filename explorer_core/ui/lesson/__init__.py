"""The guided lesson (page `lessons/lesson.py`): one sentence through real MiniLM in twelve screens,
or through the model this session opened from this machine (issue #35), once the learner picks it.

Read in this order:

1. `calls`          the model's tokens and forward pass for the lesson's sentences, cached;
                    `model_key` names the model (MiniLM, MiniLM + 中文, `opened::<ref>`).
2. `frame`          the `Lesson` every screen reads, and `table`.
3. `screens`        the four screens drawn without torch (text, bytes, tokens, ids); `show`
                    draws any screen by name.
4. `model_screens`  the eight screens that run a model (imported when one is first shown);
                    `why_screen` the last (an RNN against attention, on the lesson's tokens).
5. `texts`, `texts_why` the lesson's English and Chinese texts; `texts_taught` and `texts_opened`
                    the variants (`frame.variant`) that name MiniLM + 中文 or the opened model.
"""
