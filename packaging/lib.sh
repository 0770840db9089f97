# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the packaging scripts (sourced, not run): progress lines, and tools installed with
# apt-get when missing (as root; otherwise the exact command is printed).
# The sourcing script sets prog (its name) first.

say() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { say "$*"; exit 1; }

# need TOOL PACKAGE: makes sure TOOL is on PATH (or, given as a path, exists), installing
# Debian's PACKAGE if it is not.
need() {
  local tool=$1 package=$2
  command -v "$tool" >/dev/null 2>&1 && return 0
  [[ "$tool" == /* ]] && [ -e "$tool" ] && return 0
  [ "$(id -u)" -eq 0 ] || die "'$tool' is missing; install it with: sudo apt-get install $package"
  say "installing $package (for $tool) ..."
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have no package lists yet: update once if the first try fails.
  apt-get install -y -qq --no-install-recommends "$package" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "$package" >/dev/null; } \
    || die "could not install $package"
  command -v "$tool" >/dev/null 2>&1 || [ -e "$tool" ] || die "$package did not provide $tool"
}

# The Maven build, offline first (the usual case here), online when the local repository lacks
# something (a fresh machine). Maven 3.8 prints stray colour resets even in batch mode.
mvn_quiet() {
  # (the callers run with pipefail: the status is Maven's)
  (mvn -q -B -o "$@" 2>&1 || { say "offline build failed; retrying online"; mvn -q -B "$@" 2>&1; }) | sed 's/\x1b\[0m//g' >&2
}

# The app's identity, shared by every file that names it.
APP_ID=dev.runaway.Runaway
