#!/usr/bin/env bash
# Compares what the parser makes of the same inputs at revision REV and in
# the working tree: the shared corpus (../shared/corpus, when present) and
# the fixtures, each as it is and in N mutated copies (default 30). Exits 0
# when every output is identical, 1 with the differing files listed.
# For parser changes meant to change no output (speed, memory).
# Usage: scripts/parse-diff.sh REV [N]
set -euo pipefail
cd "$(dirname "$0")/.."

REV="${1:?usage: scripts/parse-diff.sh REV [MUTATIONS]}"
N="${2:-30}"
ROOT="$PWD"
WORK="$ROOT/target/parse-diff"
EXAMPLE=crates/parse/examples/parse_dump.rs

INPUTS=("$ROOT/fixtures")
if [ -d "$ROOT/../shared/corpus" ]; then
  INPUTS+=("$(cd "$ROOT/../shared/corpus" && pwd)")
fi

rm -rf "$WORK/base" "$WORK/out-base" "$WORK/out-head"
mkdir -p "$WORK"
git worktree prune
git worktree add --quiet --detach "$WORK/base" "$REV"
trap 'git -C "$ROOT" worktree remove --force "$WORK/base" 2>/dev/null || true' EXIT
# The same dump program on both sides, whatever REV had.
cp "$EXAMPLE" "$WORK/base/$EXAMPLE"

echo "parse-diff: building $REV"
(cd "$WORK/base" && CARGO_TARGET_DIR="$WORK/target-base" cargo build --quiet --release -p awrflash-parse --example parse_dump)
echo "parse-diff: building the working tree"
cargo build --quiet --release -p awrflash-parse --example parse_dump

"$WORK/target-base/release/examples/parse_dump" "$WORK/out-base" --mutations "$N" "${INPUTS[@]}"
"$ROOT/target/release/examples/parse_dump" "$WORK/out-head" --mutations "$N" "${INPUTS[@]}"

if diff -rq "$WORK/out-base" "$WORK/out-head"; then
  echo "parse-diff: identical ($(find "$WORK/out-head" -type f | wc -l) outputs)"
else
  echo "parse-diff: outputs differ (diff -r $WORK/out-base $WORK/out-head)" >&2
  exit 1
fi
