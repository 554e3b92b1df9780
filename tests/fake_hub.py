"""A local imitation of the Hugging Face Hub's HTTP API, just enough for huggingface_hub 2.x's
real `snapshot_download` (model info, the file tree, HEAD and GET of each file), serving one
folder as the repository ``org/<anything>`` at one commit. On 127.0.0.1 only; no network.

Use: ``with serving(folder) as endpoint:`` then run huggingface_hub with ``HF_ENDPOINT=endpoint``
(read at its import, so in a fresh process) and ``HF_HUB_OFFLINE=0``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "a" * 40
CHUNK = 1 << 16


def handler_for(files: dict[str, bytes]) -> type[BaseHTTPRequestHandler]:
    class Hub(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _send(self, status: int, body: bytes = b"", headers: dict | None = None) -> None:
            self.send_response(status)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                for start in range(0, len(body), CHUNK):
                    self.wfile.write(body[start : start + CHUNK])

        def _file(self) -> None:
            path = self.path.split("?")[0].split("/")
            name = "/".join(path[path.index("resolve") + 2 :])  # /org/x/resolve/<rev>/<name>
            if name not in files:
                return self._send(404, headers={"X-Error-Code": "EntryNotFound"})
            etag = hashlib.sha256(files[name]).hexdigest()
            self._send(200, files[name], {"X-Repo-Commit": COMMIT, "ETag": f'"{etag}"'})

        def _json(self, data: object) -> None:
            self._send(200, json.dumps(data).encode(), {"Content-Type": "application/json"})

        def do_HEAD(self) -> None:
            self._file() if "/resolve/" in self.path else self._send(404)

        def do_GET(self) -> None:
            if "/resolve/" in self.path:
                return self._file()
            if "/tree/" in self.path:
                return self._json([{"type": "file", "path": name, "size": len(data),
                                    "oid": hashlib.sha1(data).hexdigest()}
                                   for name, data in files.items()])  # fmt: skip
            if self.path.startswith("/api/models/"):
                siblings = [{"rfilename": name, "size": len(data)} for name, data in files.items()]
                return self._json({"id": "org/fake", "sha": COMMIT, "siblings": siblings})
            self._send(404)

    return Hub


@contextmanager
def serving(folder: Path):
    """The endpoint URL of a Hub serving ``folder``'s files, for the duration of the block."""
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
             if p.is_file()}  # fmt: skip
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(files))
    thread = threading.Thread(target=server.serve_forever, name="fake-hub", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
