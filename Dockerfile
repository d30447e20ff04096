# The image compose.yaml runs, one container per line of the Procfile
# (docs/operating/serve.md): Debian's Python, HAProxy from Debian (the balancer's
# container runs this image too), the project installed as `make install` and
# `make compile` install it, the translations compiled. The release service collects the
# static files into a volume the web containers share.
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
# make and a C compiler for `make compile` (the engine built with mypyc), HAProxy
RUN apt-get update \
    && apt-get install -y --no-install-recommends make gcc libc6-dev haproxy \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . .
RUN make compile
ENV PATH=/app/.venv/bin:$PATH

RUN DJANGO_DEBUG=true python manage.py compile_translations

# the static files' volume takes this folder's owner when first mounted
RUN useradd --system --no-create-home push && mkdir staticfiles && chown push staticfiles
USER push
