#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the C programs into OUT_DIR with the machine's C compiler.
# Called by Maven in the compile phase; usable by hand: sh src/main/c/build.sh target/native
# Flags: the distribution's hardening flags from dpkg-buildflags (hardening=+all: PIE, bindnow,
# relro, stack protector, fortify, ...) when it is installed, the same set spelled out when it
# is not. Warnings are errors only in CI (CI=true) or with RUNAWAY_WERROR=1: a newer compiler
# on a user's machine may warn about what this one does not, and must not break their build.
set -eu
out=${1:?usage: build.sh OUT_DIR}
src=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "runaway: no C compiler found ('$cc'). Install one with: apt-get install gcc" >&2
  exit 1
fi
if command -v dpkg-buildflags >/dev/null 2>&1; then
  DEB_BUILD_MAINT_OPTIONS=${DEB_BUILD_MAINT_OPTIONS:-hardening=+all}
  export DEB_BUILD_MAINT_OPTIONS
  cflags=$(dpkg-buildflags --get CFLAGS)
  cppflags=$(dpkg-buildflags --get CPPFLAGS)
  ldflags=$(dpkg-buildflags --get LDFLAGS)
else
  cflags="-g -O2 -fstack-protector-strong -fstack-clash-protection -Wformat -Werror=format-security -fPIE"
  cppflags="-D_FORTIFY_SOURCE=2"
  ldflags="-pie -Wl,-z,relro -Wl,-z,now"
fi
# Debian 12's dpkg (1.21) does not yet add these two (dpkg 1.22 does): added when the compiler
# takes them (-fcf-protection is x86 only), so hardening-check finds them in the helper.
for extra in -fstack-clash-protection -fcf-protection; do
  case " $cflags " in *" $extra "*) continue ;; esac
  if echo 'int main(void){return 0;}' | "$cc" -Werror $extra -x c -o /dev/null - >/dev/null 2>&1; then
    cflags="$cflags $extra"
  fi
done
werror=""
if [ "${CI:-}" = true ] || [ "${RUNAWAY_WERROR:-0}" = 1 ]; then werror=-Werror; fi
flags="-std=c11 -Wall -Wextra $werror $cflags $cppflags $ldflags"

mkdir -p "$out"
# runaway-rt's stranger allowance, from its one definition in the Java code.
header="$out/include/stranger-allowance.h"
sh "$src/gen-stranger-allowance.sh" "$header"
# Everything is rebuilt when the flags change (CI's -Werror, a new dpkg), else only what changed,
# so a launcher run after an edit stays quick.
[ "$(cat "$out/.flags" 2>/dev/null || true)" = "$cc $flags" ] || rm -f "$out/.flags"
for file in "$src"/*.c; do
  name=$(basename "$file" .c)
  if [ ! -f "$out/.flags" ] || [ ! -x "$out/$name" ] || [ "$file" -nt "$out/$name" ] || [ "$header" -nt "$out/$name" ]; then
    # runaway-rt runs before anything at ordinary priority during a fire: static, no loader.
    link=""
    if [ "$name" = runaway-rt ]; then link=-static-pie; fi
    # shellcheck disable=SC2086 # the flags are words
    "$cc" $flags $link -I"$out/include" -o "$out/$name" "$file"
  fi
done
echo "$cc $flags" > "$out/.flags"
