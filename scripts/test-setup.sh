#!/usr/bin/env bash
# Set-up that the tests need beyond `npm ci`, run by `npm test` itself so that a newcomer and
# CI run the same thing: Debian's Chromium for the browser test (playwright-core drives it;
# no browser download), installed with apt-get only when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -d test/browser ] && [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "test-setup: installing Debian's chromium for the browser test (apt-get)..."
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq chromium >/dev/null
  else
    echo "test-setup: /usr/bin/chromium is missing and apt-get is not available; install Chromium to run the browser test" >&2
    exit 1
  fi
fi
