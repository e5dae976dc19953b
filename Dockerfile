# binpack-guard webhook image: `binpack-webhook serve` as a non-root user.
# Build from the repository root:  docker build -t binpack-guard:0.1.0 .

# Stage 1: build wheels for the package and its webhook extra (no compiler needed: all have wheels).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY linter ./linter
COPY webhook ./webhook
COPY schemas ./schemas
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[webhook]"

# Stage 2: the runtime, with nothing but the installed wheels.
FROM python:3.11-slim
# No .pyc writes (the chart mounts the root filesystem read-only) and unbuffered logs.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# Fixed numeric ids, the same as the chart's podSecurityContext, so runAsNonRoot can verify them.
RUN groupadd --system --gid 10001 binpack \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin binpack
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links=/wheels "binpack-guard[webhook]" \
 && rm -rf /wheels
USER 10001:10001
EXPOSE 8443
ENTRYPOINT ["binpack-webhook"]
CMD ["serve"]
