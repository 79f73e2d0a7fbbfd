#!/usr/bin/env bash
# Serves the API and the admin UI together on the embedded defaults (called by `./weft up` after the
# build). The API starts first; the web UI starts only once the API answers /healthz, so the first page
# load never meets a dead backend. Ctrl-C (or TERM) stops both; if either dies, the other is stopped too.
#
# Environment (all optional):
#   HOST            where both listen                          (127.0.0.1)
#   PORT            the API's port                             (4000)
#   WEB_PORT        the admin UI's port                        (3000)
#   WEFT_DATA_DIR   the embedded database and vector store     (./.weft-data)
#   WEFT_AUTH       required|disabled; disabled by default on a loopback HOST (local use), required
#                   otherwise (the API refuses disabled there): then set WEFT_ADMIN_KEY too.
#   Every other API variable (MISTRAL_API_KEY, DATABASE_URL, WEAVIATE_URL, …) is passed through.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

host="${HOST:-127.0.0.1}"
api_port="${PORT:-4000}"
web_port="${WEB_PORT:-3000}"
case "$host" in
  127.*|localhost|::1) export WEFT_AUTH="${WEFT_AUTH:-disabled}" ;;
  *) export WEFT_AUTH="${WEFT_AUTH:-required}" ;;
esac
export WEFT_DATA_DIR="${WEFT_DATA_DIR:-$root/.weft-data}"
# The browser reaches the API on the host it used for the UI, so URLs must match what users type.
browser_host="$host"
case "$host" in 0.0.0.0|::) browser_host="127.0.0.1" ;; esac
api_url="http://$browser_host:$api_port"
web_url="http://$browser_host:$web_port"
export CORS_ORIGINS="${CORS_ORIGINS:-$web_url,http://localhost:$web_port,http://127.0.0.1:$web_port}"

for f in apps/api/dist/main.js apps/web/.next/BUILD_ID; do
  [ -e "$f" ] || { echo "weft up: $f is missing; run ./weft up (it builds first) or pnpm build" >&2; exit 1; }
done

api_pid=""
web_pid=""
stopping=0

stop_all() {
  stopping=1
  for pid in $web_pid $api_pid; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in $web_pid $api_pid; do
    wait "$pid" 2>/dev/null || true
  done
}

on_signal() {
  echo >&2
  echo "weft up: stopping" >&2
  stop_all
  exit 0
}
trap on_signal INT TERM

# Waits until URL answers (any HTTP status) or the process PID exits; returns 1 in the latter case.
wait_for() {
  local url="$1" pid="$2" name="$3" tries=0
  until node -e 'fetch(process.argv[1]).then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))' "$url" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "weft up: the $name exited before it was ready" >&2
      return 1
    fi
    tries=$((tries + 1))
    if [ "$tries" -ge 240 ]; then
      echo "weft up: the $name did not answer $url within 120 s" >&2
      return 1
    fi
    sleep 0.5
  done
}

echo "weft up: starting the API on $api_url (data in $WEFT_DATA_DIR, auth $WEFT_AUTH)" >&2
# Each server runs in its own session, so a Ctrl-C reaches only this script, whose trap then stops
# both in order; otherwise the terminal's SIGINT would race the trap.
HOST="$host" PORT="$api_port" setsid node apps/api/dist/main.js &
api_pid=$!
if ! wait_for "$api_url/healthz" "$api_pid" "API"; then stop_all; exit 1; fi

echo "weft up: starting the admin UI on $web_url" >&2
(cd apps/web && exec setsid node node_modules/next/dist/bin/next start \
  --hostname "$host" --port "$web_port") &
web_pid=$!
if ! wait_for "$web_url/" "$web_pid" "admin UI"; then stop_all; exit 1; fi

# The UI finds the API on port 4000 of the host it was loaded from; any other port is passed once in
# the address (?api=…) and remembered by the browser.
ui_url="$web_url"
[ "$api_port" = 4000 ] || ui_url="$web_url/workflows?api=$api_url/graphql"

cat <<EOF

  Weft is ready.
    Admin UI      $ui_url
    GraphQL API   $api_url/graphql   (subscriptions: ws://$browser_host:$api_port/graphql)
    Data          $WEFT_DATA_DIR
  Press Ctrl-C to stop.

EOF

# Either process ending on its own ends the whole thing, with its exit code.
set +e
wait -n "$api_pid" "$web_pid"
code=$?
set -e
if [ "$stopping" = 0 ]; then
  echo "weft up: a process exited (code $code); stopping the other" >&2
  stop_all
  exit "$code"
fi
