#!/usr/bin/env bash
# Builds small fuzz seeds from the shared corpus (never committed: the corpus
# stays outside the repository). Each seed is a report's head (title and
# header) followed by one window from further in, so that a mutated seed
# gets past the header checks and reaches the section parsers.
# Usage: fuzz/seed.sh [corpus dir]   (default: ../shared/corpus beside the workspace)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:-$here/../../shared/corpus}"
[ -d "$src" ] || { echo "no corpus at $src" >&2; exit 1; }

seed() { # target file head_bytes window_bytes windows
  local target=$1 file=$2 head=$3 win=$4 n=$5
  local dir="$here/corpus/$target" size base step i
  mkdir -p "$dir"
  size=$(stat -c %s "$file")
  base=$(basename "$file")
  head -c "$head" "$file" > "$dir/$base.head"
  step=$(( size / (n + 1) ))
  for i in $(seq 1 "$n"); do
    { head -c "$head" "$file"; dd if="$file" iflag=skip_bytes,count_bytes skip=$(( i * step )) count="$win" status=none; } > "$dir/$base.w$i"
  done
}

for f in "$src"/awr-html/*; do seed awr_html "$f" 16384 8192 6; seed parse_bytes "$f" 16384 8192 2; seed parse_head "$f" 16384 0 0; done
for f in "$src"/awr-text/*; do seed awr_text "$f" 8192 8192 8; seed parse_bytes "$f" 8192 8192 2; seed parse_head "$f" 8192 0 0; done
for f in "$src"/statspack/*; do seed statspack "$f" 8192 8192 8; seed parse_bytes "$f" 8192 8192 2; seed parse_head "$f" 8192 0 0; done
for f in "$src"/iostat/*; do seed iostat "$f" 4096 4096 4; seed parse_bytes "$f" 4096 4096 1; done
for f in "$src"/other/*sar*; do seed sar "$f" 4096 4096 4; seed parse_bytes "$f" 4096 4096 1; done
for f in "$src"/other/*.nmon; do seed nmon "$f" 4096 4096 4; seed parse_bytes "$f" 4096 4096 1; done
# No sysstat spool or dba_segments CSV in the corpus: seed those from the
# project's own fixtures, plus a minimal example of each. The reduced
# fixtures of the other formats seed their targets too.
mkdir -p "$here/corpus/sysstat" "$here/corpus/segsizes"
printf 'name,value\nphysical read total IO requests,123456\nflash cache inserts,42\nredo size,1,234\n' > "$here/corpus/sysstat/min.csv"
printf 'NAME                                                                  VALUE\n---------------------------------------------------------------- ----------\nphysical read flash cache hits                                          77\nsession logical reads                                           1234567\n' > "$here/corpus/sysstat/min.lst"
printf 'OWNER,SEGMENT_NAME,PARTITION_NAME,SEGMENT_TYPE,TABLESPACE_NAME,BYTES\nAPP,ORDERS,,TABLE,USERS,104857600\nAPP,ORDERS_PK,,INDEX,USERS,5242880\n' > "$here/corpus/segsizes/segments.csv"
fx="$here/../fixtures"
for pair in sysstat:sysstat segsizes:segsizes iostat:iostat sar:sar nmon:nmon awr_text:awr-text awr_html:awr-html awr_html:awr-html/broken; do
  target=${pair%%:*}; sub=${pair#*:}
  [ -d "$fx/$sub" ] || continue
  for f in "$fx/$sub"/*; do [ -f "$f" ] && cp "$f" "$here/corpus/$target/fixture-$(basename "$f")"; done
done
for d in sysstat segsizes; do for f in "$here/corpus/$d/"*; do cp "$f" "$here/corpus/parse_bytes/$d-$(basename "$f")"; done; done
echo "seeds: $(find "$here/corpus" -type f | wc -l) files under $here/corpus"
