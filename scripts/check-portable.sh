#!/usr/bin/env bash
# Checks a built awrflash binary for portability: it runs here on the sample
# report, and no dynamic symbol it imports needs a glibc newer than the given
# version (default 2.17, Oracle Linux / RHEL 7).
# Usage: scripts/check-portable.sh [BINARY] [GLIBC_VERSION]
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${1:-target/x86_64-unknown-linux-gnu/release/awrflash}"
MAX="${2:-2.17}"

if [ ! -x "$BIN" ]; then
  echo "check-portable: $BIN: no such executable (run scripts/build-portable.sh first)" >&2
  exit 2
fi

# Highest GLIBC_x.y[.z] version among the imported dynamic symbols.
NEEDED="$(objdump -T "$BIN" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -uV | tail -1)"
echo "check-portable: $BIN needs glibc ${NEEDED:-(none)}; limit ${MAX}"
if [ -n "$NEEDED" ] && [ "$(printf '%s\n%s\n' "$NEEDED" "$MAX" | sort -V | tail -1)" != "$MAX" ]; then
  echo "check-portable: FAIL: symbols above GLIBC_${MAX}:" >&2
  objdump -T "$BIN" | grep 'GLIBC_' | while read -r line; do
    v="$(printf '%s\n' "$line" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//')"
    if [ "$(printf '%s\n%s\n' "$v" "$MAX" | sort -V | tail -1)" != "$MAX" ]; then
      printf '  %s\n' "$line" >&2
    fi
  done
  exit 1
fi

OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT
"$BIN" analyze fixtures/sample/awr_19c_sample.html >"$OUT"
if [ ! -s "$OUT" ]; then
  echo "check-portable: FAIL: analyze printed nothing" >&2
  exit 1
fi
echo "check-portable: OK: analyze fixtures/sample/awr_19c_sample.html printed $(wc -l <"$OUT") lines"
