# Embedding Explorer in a container (see README, "Classroom server"). Not tested: the machine this
# project is built on has no Docker engine.
#   docker build -t embedding-explorer .
#   docker run -p 8501:8501 embedding-explorer                                      # one replica
#   docker run -p 8501:8501 embedding-explorer bash scripts/serve_cluster.sh 4      # 4 + nginx
FROM python:3.11-slim-bookworm

# nginx and postgresql for scripts/serve_cluster.sh (both run unprivileged from their own
# folders: nginx's config, and the PostgreSQL the replicas share for class mode; the packages' own
# services are never started in a container)
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx postgresql \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home app
WORKDIR /app
COPY --chown=app:app requirements.txt ./
USER app
# torch's CPU wheel first: PyPI's default Linux wheel pulls several GB of CUDA libraries
RUN python -m venv .venv \
    && .venv/bin/pip install --no-cache-dir --index-url https://download.pytorch.org/whl/cpu \
        "$(grep '^torch==' requirements.txt)" \
    && .venv/bin/pip install --no-cache-dir -r requirements.txt
COPY --chown=app:app . .

ENV HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=3s \
    CMD .venv/bin/python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=2)"
# The standard start; 0.0.0.0 so that the port published by `docker run -p` reaches it.
CMD [".venv/bin/streamlit", "run", "app.py", "--server.address", "0.0.0.0", "--server.port", "8501"]
