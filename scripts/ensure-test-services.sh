#!/usr/bin/env bash
# Makes sure the real services the test suite starts are installed: PostgreSQL 15, Redis 7, Chromium and
# Python's websockets (for the third-party client test) from Debian's packages, a Weaviate server
# built from the Go module proxy, and the Python `mcp` package from PyPI in a venv (both cached in ~/.cache/weft).
# The tests start and stop their own instances on loopback; nothing here runs a server.
set -euo pipefail
WEAVIATE_VERSION="${WEAVIATE_VERSION:-v1.38.11}"
# The MCP client test (apps/api/src/app/mcp-python-client.int.test.ts) names this venv (python-mcp-2.3.0):
# change both together.
MCP_PYTHON_VERSION="2.3.0"
cache="${WEFT_CACHE_DIR:-$HOME/.cache/weft}"

missing=()
pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)"
[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || missing+=(postgresql)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The third-party client test is a Python script speaking GraphQL over HTTP and WebSocket.
/usr/bin/python3 -c "import websockets" >/dev/null 2>&1 || missing+=(python3-websockets)
# The MCP server's third-party client test uses the Python `mcp` package in a venv (below).
/usr/bin/python3 -c "import ensurepip" >/dev/null 2>&1 || missing+=(python3-venv)
# Korean text in the admin UI screenshots needs a Hangul font.
[ -d /usr/share/fonts/truetype/nanum ] || missing+=(fonts-nanum)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "weft: installing ${missing[*]} from Debian's packages" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "weft: the tests need these Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi

weaviate="$cache/bin/weaviate-server-$WEAVIATE_VERSION"
if [ ! -x "$weaviate" ]; then
  command -v go >/dev/null 2>&1 || { echo "weft: building Weaviate needs Go 1.26 (https://go.dev/dl)" >&2; exit 1; }
  echo "weft: building Weaviate $WEAVIATE_VERSION from the Go module proxy (once, a few minutes)" >&2
  tmp="$(mktemp -d)"
  GOBIN="$tmp" GOFLAGS=-trimpath go install "github.com/weaviate/weaviate/cmd/weaviate-server@$WEAVIATE_VERSION" >&2
  mkdir -p "$cache/bin"
  mv "$tmp/weaviate-server" "$weaviate"
  rm -rf "$tmp"
fi
mcp_venv="$cache/python-mcp-$MCP_PYTHON_VERSION"
if ! "$mcp_venv/bin/python" -c "import mcp" >/dev/null 2>&1; then
  echo "weft: installing the Python mcp package $MCP_PYTHON_VERSION from PyPI into $mcp_venv (once)" >&2
  rm -rf "$mcp_venv"
  /usr/bin/python3 -m venv "$mcp_venv" >&2
  "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_PYTHON_VERSION" >&2
fi
echo "weft: test services ready (postgres: $pg_bin, redis: $(command -v redis-server), weaviate: $weaviate, chromium: $(command -v chromium), python mcp: $mcp_venv)" >&2
