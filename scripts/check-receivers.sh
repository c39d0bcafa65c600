#!/usr/bin/env bash
# The webhook receivers of other stacks, as a team's CI would check them: the unit tests of each
# (python3 -m unittest; php test_receiver.php), then each receiver running on a free port (python3
# receiver.py; php -S receiver.php) and checked from outside by `fflkit-sandbox check-receiver`.
# Expects python3, php and the built packages (pnpm build).
set -euo pipefail
cd "$(dirname "$0")/.."

secret=whsec_ci0receivers00000000000000000000000
work=$(mktemp -d)
pid=
url=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Starts a receiver in the background and sets `url` once its log shows its origin (within 10 s).
# $1: the pattern whose first group is the origin; the rest: the command.
start() {
  local pattern=$1 log="$work/receiver.log" origin
  shift
  "$@" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do
    origin=$(sed -nE "s#.*${pattern}.*#\\1#p" "$log" | head -n 1)
    if [ -n "$origin" ]; then
      url="$origin/webhooks"
      return
    fi
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.05
  done
  echo "The receiver did not start:" >&2
  cat "$log" >&2
  return 1
}

stop() {
  kill "$pid"
  wait "$pid" || true
  pid=
}

echo "-- examples/python-receiver: python3 -m unittest"
(cd examples/python-receiver && python3 -m unittest 2>&1 | tail -n 3)
echo "-- examples/php-receiver: php test_receiver.php"
(cd examples/php-receiver && php test_receiver.php | tail -n 1)

echo "-- examples/python-receiver: python3 receiver.py, checked by fflkit-sandbox check-receiver"
FFLKIT_WEBHOOK_SECRET=$secret PORT=0 DELIVERY_DB="$work/deliveries.sqlite3" \
  start 'at (http://127\.0\.0\.1:[0-9]+)/webhooks' python3 examples/python-receiver/receiver.py
pnpm --silent exec fflkit-sandbox check-receiver "$url" --secret "$secret"
stop

echo "-- examples/php-receiver: php -S receiver.php, checked by fflkit-sandbox check-receiver"
FFLKIT_WEBHOOK_SECRET=$secret FFLKIT_DELIVERY_DIR="$work/deliveries" \
  start 'Development Server \((http://127\.0\.0\.1:[0-9]+)\) started' php -S 127.0.0.1:0 examples/php-receiver/receiver.php
pnpm --silent exec fflkit-sandbox check-receiver "$url" --secret "$secret"
stop
