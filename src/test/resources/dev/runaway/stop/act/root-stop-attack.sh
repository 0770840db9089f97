#!/bin/sh
# The stage for RootStopAttackTest, run as root inside `unshare -m --propagation private`: the
# root file the attack aims at is a stand-in on a tmpfs that exists only in this mount namespace.
#
#   /mnt        tmpfs: root's 0600 file, the stand-in for any file root can reach
#   /var/tmp    tmpfs, 1777: the attacker's (nobody's) directory /var/tmp/att with their own binary (not
#               /tmp: a checkout, its classes and the JVM's files may live there)
#
# nobody runs a linear exec chain of /var/tmp/att/tool beside an idle process of theirs in the same
# cgroup (so the cgroup is not the runaway's alone, and revoking execute is the first lever), and
# a watcher that waits for the execute bits to go, then renames a symlink to the root file over
# the binary. Root then stops the runaway
# with `runaway stop --command /var/tmp/att/tool --yes --json`. "RESULT name value" lines say what
# was left.
#
# Usage: root-stop-attack.sh WORKER JAVA CLASSPATH NATIVE_DIR
set -eu
worker=$1 java=$2 classpath=$3 native=$4
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

mount -t tmpfs -o mode=0755,size=8m runaway-attack-mnt /mnt
printf 'root only\n' > /mnt/secret
chmod 0600 /mnt/secret
mount -t tmpfs -o mode=1777,size=64m runaway-attack-tmp /var/tmp
mkdir /var/tmp/att
chown 65534:65534 /var/tmp/att
install -m 0755 -o 65534 -g 65534 "$worker" /var/tmp/att/tool

$as_nobody sleep 300 &
idle=$!
$as_nobody /var/tmp/att/tool linear 0 0 2 </dev/null >/dev/null 2>&1 &
chain=$!
while [ "$(ls /proc/*/exe -l 2>/dev/null | grep -c ' /var/tmp/att/tool')" -lt 3 ]; do sleep 0.1; done
$as_nobody sh -c 'i=0; while [ -x /var/tmp/att/tool ]; do sleep 0.005; i=$((i+1)); [ $i -lt 12000 ] || exit 1; done
                  ln -s /mnt/secret /var/tmp/att/tool.new && mv -fT /var/tmp/att/tool.new /var/tmp/att/tool
                  echo swapped > /var/tmp/att/watcher' &
watcher=$!

set +e
"$java" -Xmx256m -XX:+UseSerialGC -cp "$classpath" -Drunaway.native.dir="$native" \
  dev.runaway.cli.Main stop --command /var/tmp/att/tool --yes --json >/var/tmp/stop.json 2>/var/tmp/stop.err
echo "RESULT stop_exit $?"
set -e
echo "RESULT secret_mode $(stat -c %a /mnt/secret)"
echo "RESULT tool_is_link $([ -L /var/tmp/att/tool ] && echo yes || echo no)"
echo "RESULT watcher $(cat /var/tmp/att/watcher 2>/dev/null || echo none)"
echo "RESULT idle $([ "$(awk '{print $3}' /proc/$idle/stat)" = S ] && echo sleeping || echo touched)"
echo "STOP_JSON $(tr '\n' ' ' </var/tmp/stop.json)"
echo "STOP_ERR $(tr '\n' ' ' </var/tmp/stop.err | cut -c1-2000)"
kill "$idle" "$watcher" 2>/dev/null || true
wait "$watcher" 2>/dev/null || true
wait "$idle" 2>/dev/null || true
echo "RESULT done yes"
