"""Start the app with Streamlit's legacy "pages directory" mode switched off from the first request.

# subtle: with a `pages/` folder beside app.py, Streamlit serves a fresh server's first request in
# its legacy multipage mode until some run calls st.navigation; a first deep link (e.g. /attention)
# then flashes "Page not found" or runs the page without app.py. Setting the flag before the server
# starts makes every request go through app.py's navigation. Arguments are `streamlit run`'s.
"""

import sys

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli

if __name__ == "__main__":
    PagesManager.uses_pages_directory = False
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    sys.exit(cli.main())
