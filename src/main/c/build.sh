#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the C programs into OUT_DIR with the machine's C compiler, warnings as errors.
# Called by Maven in the compile phase; usable by hand: sh src/main/c/build.sh target/native
set -eu
out=${1:?usage: build.sh OUT_DIR}
src=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "runaway: no C compiler found ('$cc'). Install one with: apt-get install gcc" >&2
  exit 1
fi
mkdir -p "$out"
for file in "$src"/*.c; do
  name=$(basename "$file" .c)
  # Rebuild only what changed, so a launcher run after an edit stays quick.
  if [ ! -x "$out/$name" ] || [ "$file" -nt "$out/$name" ]; then
    "$cc" -std=c11 -O2 -Wall -Wextra -Werror -D_FORTIFY_SOURCE=2 -o "$out/$name" "$file"
  fi
done
