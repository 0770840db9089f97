#!/bin/sh
# The stage for RootStopAttackTest, run as root inside `unshare -m --propagation private`: the
# root file the attack aims at is a stand-in on a tmpfs that exists only in this mount namespace.
#
#   /mnt        tmpfs: root's 0600 file, the stand-in for any file root can reach
#   /tmp        tmpfs, 1777: the attacker's (nobody's) directory /tmp/att with their own binary
#
# nobody runs a linear exec chain of /tmp/att/tool beside an idle process of theirs in the same
# cgroup (so the cgroup is not the runaway's alone, and revoking execute is the first lever), and
# a watcher that waits for the execute bits to go, then renames a symlink to the root file over
# the binary. Root then stops the runaway
# with `runaway stop --command /tmp/att/tool --yes --json`. "RESULT name value" lines say what
# was left.
#
# Usage: root-stop-attack.sh WORKER JAVA CLASSPATH NATIVE_DIR
set -eu
worker=$1 java=$2 classpath=$3 native=$4
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

mount -t tmpfs -o mode=0755,size=8m runaway-attack-mnt /mnt
printf 'root only\n' > /mnt/secret
chmod 0600 /mnt/secret
mount -t tmpfs -o mode=1777,size=64m runaway-attack-tmp /tmp
mkdir /tmp/att
chown 65534:65534 /tmp/att
install -m 0755 -o 65534 -g 65534 "$worker" /tmp/att/tool

$as_nobody sleep 300 &
idle=$!
$as_nobody /tmp/att/tool linear 0 0 2 </dev/null >/dev/null 2>&1 &
chain=$!
while [ "$(ls /proc/*/exe -l 2>/dev/null | grep -c ' /tmp/att/tool')" -lt 3 ]; do sleep 0.1; done
$as_nobody sh -c 'i=0; while [ -x /tmp/att/tool ]; do sleep 0.005; i=$((i+1)); [ $i -lt 12000 ] || exit 1; done
                  ln -s /mnt/secret /tmp/att/tool.new && mv -fT /tmp/att/tool.new /tmp/att/tool
                  echo swapped > /tmp/att/watcher' &
watcher=$!

set +e
"$java" -Xmx256m -XX:+UseSerialGC -cp "$classpath" -Drunaway.native.dir="$native" \
  dev.runaway.cli.Main stop --command /tmp/att/tool --yes --json >/tmp/stop.json 2>/tmp/stop.err
echo "RESULT stop_exit $?"
set -e
echo "RESULT secret_mode $(stat -c %a /mnt/secret)"
echo "RESULT tool_is_link $([ -L /tmp/att/tool ] && echo yes || echo no)"
echo "RESULT watcher $(cat /tmp/att/watcher 2>/dev/null || echo none)"
echo "RESULT idle $([ "$(awk '{print $3}' /proc/$idle/stat)" = S ] && echo sleeping || echo touched)"
echo "STOP_JSON $(tr '\n' ' ' </tmp/stop.json)"
echo "STOP_ERR $(tr '\n' ' ' </tmp/stop.err | cut -c1-2000)"
kill "$idle" "$watcher" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true
wait "$idle" 2>/dev/null || true
echo "RESULT done yes"
