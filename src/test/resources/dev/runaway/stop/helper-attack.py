#!/usr/bin/env python3
"""The attacker of HelperAttackTest: an unprivileged user (nobody) driving the real helper.

Run by helper-attack.sh inside a private mount namespace whose /mnt and /tmp are throwaway
tmpfs stand-ins. This process plays a malicious console: it starts the helper the way pkexec
would (root for a caller that is not root: a setuid copy on the stand-in tmpfs), writes any
request it likes, and races the file system under the helper's feet. Every attack prints a
"RESULT name value" line; the test decides whether harm was done.

Usage: helper-attack.py HELPER DELEGATED_CGROUP VICTIM_PID
"""
import ctypes
import os
import shutil
import subprocess
import sys
import time

HELPER, DELEGATED, VICTIM = sys.argv[1], sys.argv[2], int(sys.argv[3])
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_DUMPABLE = 4
RACE_REQUESTS = 20000  # the helper before openat2 lost the race within this many (its stand-in went 0644)


def result(name, value):
    print(f"RESULT {name} {value}", flush=True)


def ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[19]


class Helper:
    def __init__(self, *args):
        self.p = subprocess.Popen([HELPER, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return self.reply()

    def reply(self):
        return self.p.stdout.readline().rstrip("\n")

    def close(self):
        self.p.stdin.close()
        return self.p.wait(timeout=30)


def word(reply):
    """OK, or ERR and its code: what the test compares."""
    parts = reply.split(" ")
    return parts[0] if parts[0] == "OK" else "-".join(parts[:2])


def config_from_a_caller():
    h = Helper("--config", "/tmp/att/conf")
    code = h.p.wait(timeout=30)
    result("caller_config_exit", code)
    result("caller_config_said", h.p.stderr.readline().strip())


def arguments_from_a_caller():
    """The informational argument: accepted only as --prepare or --stop DESCRIPTION (checked),
    and it configures nothing. Each refusal is one clear line on stderr and exit 2."""
    refused = {
        "stop_control": ["--stop", "49 processes\x1b[2J of /tmp/x"],
        "stop_newline": ["--stop", "49 processes\nof /tmp/x"],
        "stop_long": ["--stop", "x" * 161],
        "stop_markup": ["--stop", "<b>everything</b>"],
        "stop_empty": ["--stop", ""],
        "stop_missing": ["--stop"],
        "stop_twice": ["--stop", "a", "--stop", "b"],
        "stop_config": ["--stop", "a", "--config", "/tmp/att/conf"],
        "prepare_value": ["--prepare", "/tmp/att/conf"],
        "unknown": ["--roots", "/"],
    }
    for name, args in refused.items():
        h = Helper(*args)
        code = h.p.wait(timeout=30)
        said = h.p.stderr.read().splitlines()
        result(f"args_{name}_exit", code)
        result(f"args_{name}_lines", len(said))
        result(f"args_{name}_said", said[0] if said else "")
    # Accepted, and still bound by nothing: the description names the whole machine.
    for name, args in {"prepare": ["--prepare"], "stop": ["--stop", "cgroup / (every process)"]}.items():
        h = Helper(*args)
        result(f"args_{name}_hello", word(h.ask("HELLO")))
        result(f"args_{name}_freeze_root", word(h.ask("FREEZE /")))
        result(f"args_{name}_signal_victim", word(h.ask(f"SIGNAL {VICTIM} {ticks(VICTIM)} 19")))
        result(f"args_{name}_exit", h.close())


def foreign_write(console_pid, fd, line):
    """Another process of the same user writes into the console's pipe to the helper."""
    code = ("import sys\n"
            "try:\n"
            f"    f = open('/proc/{console_pid}/fd/{fd}', 'w')\n"
            f"    f.write({line!r} + '\\n'); f.flush(); print('written')\n"
            "except OSError as e:\n"
            "    print('denied', e.errno)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30).stdout.split()
    return out[0] if out else "nothing"


RACE_TOOL = "/tmp/att/race/d/tool"  # the attacker's copy of sleep, run by a target of the stop


def race_revoke(h):
    """REVOKE/RESTORE a file while a directory on its path is swapped with a symlink to the
    stand-in system directory by renameat2(RENAME_EXCHANGE), as fast as the kernel allows."""
    tool = RACE_TOOL
    os.symlink("/mnt/sys", "/tmp/att/race/s")
    swapper = subprocess.Popen([sys.executable, "-c", (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "while not os.path.exists('/tmp/att/race/stop'):\n"
        "    libc.renameat2(-100, b'/tmp/att/race/d', -100, b'/tmp/att/race/s', 2)\n")])
    counts = {}
    for _ in range(RACE_REQUESTS):
        r = h.ask("REVOKE " + tool)
        counts[word(r)] = counts.get(word(r), 0) + 1
        if r.startswith("OK "):
            back = h.ask(f"RESTORE {tool} {r.split()[1]}")
            counts["restore-" + word(back)] = counts.get("restore-" + word(back), 0) + 1
    open("/tmp/att/race/stop", "w").close()
    swapper.wait(timeout=30)
    result("race_replies", ",".join(f"{k}={v}" for k, v in sorted(counts.items())))
    result("race_revoked", counts.get("OK", 0))
    result("race_refused", counts.get("ERR-refused", 0))


def main():
    config_from_a_caller()
    arguments_from_a_caller()

    sleeper = subprocess.Popen(["sleep", "300"])  # the stop's one target: the attacker's own process
    h = Helper()
    result("hello", word(h.ask("HELLO")))
    result("signal_unbound", word(h.ask(f"SIGNAL {VICTIM} {ticks(VICTIM)} 18")))

    # The pipe to the helper while this console is dumpable, then once it is not.
    me, pipe = os.getpid(), h.p.stdin.fileno()
    result("foreign_write_dumpable", foreign_write(me, pipe, "BIND -"))
    result("bind_dumpable", word(h.reply()))
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    result("foreign_write_guarded", foreign_write(me, pipe, "BIND -"))

    result("bind_root", word(h.ask("BIND /")))
    result("bind", word(h.ask("BIND -")))
    result("target", word(h.ask(f"TARGET {sleeper.pid} {ticks(sleeper.pid)}")))
    result("confirm", word(h.ask("CONFIRM")))
    result("rebind", word(h.ask("BIND -")))

    # Levers on what the stop does not hold.
    result("signal_victim", word(h.ask(f"SIGNAL {VICTIM} {ticks(VICTIM)} 19")))
    result("oomadj_victim", word(h.ask(f"OOMADJ {VICTIM} {ticks(VICTIM)} -1000")))
    result("oomadj_console", word(h.ask(f"OOMADJ {me} {ticks(me)} -1000")))
    result("freeze_root", word(h.ask("FREEZE /")))
    result("freeze_delegated", word(h.ask(f"FREEZE {DELEGATED}")))

    # Issue 32: with a stop of its own one sleep confirmed, REVOKE another user's build tool.
    result("revoke_other_users", word(h.ask("REVOKE /tmp/victim-true")))
    # Then name a process that runs another user's tool (anyone may run it), and an own file nothing runs.
    victim_run = subprocess.Popen(["/tmp/victim-sleep", "300"])
    shutil.copy("/bin/sleep", "/tmp/att/idle")
    os.makedirs("/tmp/att/race/d")
    shutil.copy("/bin/sleep", RACE_TOOL)
    race_run = subprocess.Popen([RACE_TOOL, "300"])  # Popen returns once the exec succeeded
    result("unbind", word(h.ask("UNBIND")))
    h.ask("BIND -")
    for p in (sleeper, victim_run, race_run):
        h.ask(f"TARGET {p.pid} {ticks(p.pid)}")
    result("rebound", word(h.ask("CONFIRM")))
    result("revoke_other_users_run", word(h.ask("REVOKE /tmp/victim-sleep")))
    result("revoke_own_not_run", word(h.ask("REVOKE /tmp/att/idle")))

    # RESTORE of execute bits the helper never took (root's 0644 file).
    result("restore_not_taken", word(h.ask("RESTORE /tmp/rootfile 755")))

    # MOVE into a runaway-quarantine.* cgroup the user made in its delegated subtree.
    v2 = "/sys/fs/cgroup/unified" if os.path.isdir("/sys/fs/cgroup/unified/" + DELEGATED) else "/sys/fs/cgroup"
    os.mkdir(f"{v2}{DELEGATED}/runaway-quarantine.evil")
    result("move_user_quarantine", word(h.ask(f"MOVE {DELEGATED}/runaway-quarantine.evil {sleeper.pid} {ticks(sleeper.pid)}")))
    result("user_quarantine_procs", len(open(f"{v2}{DELEGATED}/runaway-quarantine.evil/cgroup.procs").read().split()))

    # A FIFO and a hard link instead of a binary.
    os.mkfifo("/tmp/att/fifo")
    result("revoke_fifo", word(h.ask("REVOKE /tmp/att/fifo")))

    race_revoke(h)
    victim_run.kill()
    race_run.kill()

    # The console goes away mid-stop: its target sits frozen in a quarantine the helper made.
    name = f"att{os.getpid()}"
    quarantine = h.ask(f"QUARANTINE {name}")
    result("quarantine", word(quarantine))
    result("move_own_quarantine", word(h.ask(f"MOVE {quarantine[3:]} {sleeper.pid} {ticks(sleeper.pid)}")))
    result("helper_exit", h.close())
    try:
        sleeper.wait(timeout=20)
        result("target_after_eof", f"killed-{-sleeper.returncode}")
    except subprocess.TimeoutExpired:
        result("target_after_eof", "alive")
        sleeper.kill()
    result("quarantine_after_eof", "exists" if os.path.exists(f"{v2}/runaway-quarantine.{name}") else "removed")


main()
