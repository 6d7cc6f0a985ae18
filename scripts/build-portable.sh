#!/usr/bin/env bash
# Builds an awrflash binary that starts on glibc 2.17 and later (Oracle Linux /
# RHEL 7 and up), then checks it (scripts/check-portable.sh).
#
# Installs what it needs when missing: zig from the PyPI package `ziglang`
# (pip) and `cargo-zigbuild` from crates.io (cargo install --locked), plus the
# rustup target. The result is
#   target/x86_64-unknown-linux-gnu/release/awrflash
# Usage: scripts/build-portable.sh [extra cargo args]
# The build is a full release build for another target: on 2 cores it takes a
# while; run it with `nice -n 10` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."

GLIBC="${AWRFLASH_GLIBC:-2.17}"
TRIPLE="x86_64-unknown-linux-gnu"
ZIGLANG_VERSION="${AWRFLASH_ZIGLANG_VERSION:-0.13.0.post1}"

if ! command -v zig >/dev/null 2>&1 && ! python3 -c 'import ziglang' >/dev/null 2>&1; then
  echo "== installing zig (PyPI ziglang ${ZIGLANG_VERSION})"
  python3 -m pip install --quiet "ziglang==${ZIGLANG_VERSION}"
fi

if ! command -v cargo-zigbuild >/dev/null 2>&1; then
  echo "== installing cargo-zigbuild (crates.io)"
  cargo install --locked cargo-zigbuild
fi

if command -v rustup >/dev/null 2>&1; then
  rustup target add "$TRIPLE" >/dev/null
fi

echo "== cargo zigbuild --release --target ${TRIPLE}.${GLIBC}"
cargo zigbuild --release --locked --target "${TRIPLE}.${GLIBC}" -p awrflash --bin awrflash "$@"

BIN="target/${TRIPLE}/release/awrflash"
ls -l "$BIN"
scripts/check-portable.sh "$BIN" "$GLIBC"
