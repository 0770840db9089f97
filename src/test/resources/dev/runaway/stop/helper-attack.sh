#!/bin/sh
# The stage for HelperAttackTest, run as root inside `unshare -m --propagation private`: every
# file the attacks aim at is a stand-in on a tmpfs that exists only in this mount namespace.
#
#   /mnt                 tmpfs: the "system" (a root-owned 0755 binary the attacker must not
#                        chmod) and a setuid-root copy of the helper, which stands in for pkexec:
#                        root for a caller that is not root
#   /tmp                 tmpfs: the attacker's disposable root, shared with another user
#                        (daemon), whose build tools there the attacker must not chmod
#
# Then it runs the attacker (helper-attack.py) as nobody and prints what the attacks left:
# "RESULT name value" lines, read by the test.
#
# Usage: helper-attack.sh HELPER ATTACK_PY CGROUP_DIR V2ROOT
set -eu
helper=$1 attack=$2 cgroup=$3 v2root=$4

mount -t tmpfs -o mode=0755,size=64m runaway-attack-mnt /mnt
mkdir /mnt/sys /mnt/bin
cp /bin/true /mnt/sys/tool
chmod 0755 /mnt/sys/tool
cp "$helper" /mnt/bin/runaway-helper
chmod 4755 /mnt/bin/runaway-helper
cp "$attack" /mnt/attack.py
mount -t tmpfs -o mode=1777,size=64m runaway-attack-tmp /tmp
mkdir /tmp/att
chown 65534:65534 /tmp/att
install -m 0644 /dev/null /tmp/rootfile          # root's, no execute bits to "restore"
# Another user's build tools in the shared /tmp (issue 32): daemon's copies of true and sleep.
install -m 0755 -o 1 -g 1 /bin/true /tmp/victim-true
install -m 0755 -o 1 -g 1 /bin/sleep /tmp/victim-sleep
printf '/\n/mnt\n' > /tmp/att/conf              # a caller's own config naming the whole system
chown 65534:65534 /tmp/att/conf

# A cgroup delegated to the attacker (the way systemd delegates user@.service): it may make
# cgroups there, a runaway-quarantine.* among them.
deleg=$cgroup/attacker
mkdir "$deleg"
chown 65534:65534 "$deleg" "$deleg/cgroup.procs" "$deleg/cgroup.subtree_control"
rel_deleg=${deleg#"$v2root"}

# A process outside any stop: root's, started here.
sleep 300 &
victim=$!

# --config under pkexec: PKEXEC_UID set, real root otherwise.
set +e
PKEXEC_UID=65534 /mnt/bin/runaway-helper --config /tmp/att/conf </dev/null 2>/tmp/pkexec-config.err
echo "RESULT pkexec_config_exit $?"
echo "RESULT pkexec_config_said $(head -n 1 /tmp/pkexec-config.err)"

setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 /mnt/attack.py /mnt/bin/runaway-helper "$rel_deleg" "$victim"
echo "RESULT attacker_exit $?"
echo "RESULT standin_mode $(stat -c %a /mnt/sys/tool)"
echo "RESULT rootfile_mode $(stat -c %a /tmp/rootfile)"
echo "RESULT victim_true_mode $(stat -c %a /tmp/victim-true)"
echo "RESULT victim_sleep_mode $(stat -c %a /tmp/victim-sleep)"
echo "RESULT own_idle_mode $(stat -c %a /tmp/att/idle)"
if kill -0 "$victim" 2>/dev/null && [ "$(awk '{print $3}' /proc/$victim/stat)" != T ]; then victim_state=running; else victim_state=touched; fi
echo "RESULT victim $victim_state"
echo "RESULT victim_oom $(cat /proc/$victim/oom_score_adj)"
kill "$victim"
wait "$victim" 2>/dev/null
rmdir "$deleg"/runaway-quarantine.* 2>/dev/null
rmdir "$deleg"
echo "RESULT done yes"
