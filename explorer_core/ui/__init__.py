"""The only streamlit-aware part of the package: what pages share, so a page stays short.

Read in this order:

1. `i18n` and `catalog/`  `t(key)`: every text the app shows, in English and Chinese.
2. `state`                session keys, links that restore a view (`bound`, `share_link`).
   `settings`             every page's settings declared once (key, default, kind, range or
                          choices): pages take their defaults and widgets from it (`bind`), the
                          lesson pack stores exactly its keys.
3. `nav`, `present`, `chrome`  the page list, presentation mode, Streamlit's own texts translated;
                          `throttle` slows a session that floods the server with reruns and
                          bounds the page scripts running at once.
4. `export`               `show_chart` and the download buttons every page uses.
5. One module per page family, holding its cached calls into the core and its larger views:
   `tokenizer`, `lab_views`, `lab_replay`, `tokens`, `embedding`, `token_map`, `positions`,
   `position_views`, `attention`, `attention_views`, `inputs_views`, `pretrained`, `training`,
   `train_panels`, `similarity_views`, `lesson`, `lesson_screens`, `lesson_model_screens`,
   `quiz`, `pack`.
"""
