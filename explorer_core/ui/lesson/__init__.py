"""The guided lesson (page `lessons/lesson.py`): one sentence through real MiniLM in eleven screens.

Read in this order:

1. `calls`          MiniLM's tokens and forward pass for the lesson's sentences, cached.
2. `frame`          the `Lesson` every screen reads, and `table`.
3. `screens`        the four screens drawn without torch (text, bytes, tokens, ids); `show`
                    draws any screen by name.
4. `model_screens`  the seven screens that run MiniLM (imported when one is first shown).
5. `texts`          the lesson's English and Chinese texts.
"""
