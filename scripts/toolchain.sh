# Sourced by ./weft and .ci/run: puts Node 24 and pnpm on PATH, installing them into .tools/ once.
NODE_MAJOR=24
PNPM_VERSION=10.34.8

ensure_toolchain() {
  local tools="$root/.tools"
  if [ ! -x "$tools/node_modules/.bin/node" ] || [ ! -x "$tools/node_modules/.bin/pnpm" ] ||
     [ "$("$tools/node_modules/.bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$NODE_MAJOR" ]; then
    echo "weft: installing Node $NODE_MAJOR and pnpm $PNPM_VERSION into .tools/ (once)" >&2
    mkdir -p "$tools"
    [ -f "$tools/package.json" ] || echo '{"private":true}' > "$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR" "pnpm@$PNPM_VERSION" >&2)
  fi
  export PATH="$tools/node_modules/.bin:$root/node_modules/.bin:$PATH"
}

ensure_dependencies() {
  if [ ! -f "$root/node_modules/.modules.yaml" ] || [ "$root/pnpm-lock.yaml" -nt "$root/node_modules/.modules.yaml" ]; then
    (cd "$root" && pnpm install --frozen-lockfile --reporter=append-only >&2)
  fi
}
