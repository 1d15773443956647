#!/usr/bin/env bash
# Set-up that the tests need beyond `npm ci`, run by `npm test` itself so that a newcomer and
# CI run the same thing, installed with apt-get only when missing:
# - Debian's Chromium for the browser test (playwright-core drives it; no browser download). Its
#   package also ships SwiftShader, the software Vulkan driver (libvk_swiftshader.so and
#   vk_swiftshader_icd.json in /usr/lib/chromium) on which the GPU tests run WebGPU without a GPU;
# - the Vulkan loader (libvulkan1), through which Dawn (the `webgpu` package) finds SwiftShader.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
if [ -d test/browser ] || [ -d test/gpu ]; then
  if [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
fi
if [ -d test/gpu ] && ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1 '; then
  missing+=(libvulkan1)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "test-setup: installing ${missing[*]} for the browser and GPU tests (apt-get)..."
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "test-setup: ${missing[*]} missing and apt-get is not available; install them to run the browser and GPU tests" >&2
    exit 1
  fi
fi
