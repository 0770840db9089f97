# An unprivileged user against the guard's control socket (GuardControlFloodTest): opens COUNT
# connections and holds them; some send an oversize line, some garbage, some half a request, most
# nothing. Prints "opened N", then what the guard did with them as it happens:
# "state open O closed C busy B timeout T toolong L usage U other X", and "allclosed" when the
# guard closed every one. Ends when its input closes or after 60 s.
import os, random, select, socket, sys, time

path, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(40)
conns, answers = [], {}
for i in range(count):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)                                        # blocking: waits while the backlog is full
    except OSError as e:
        print("connect-failed", i, e, flush=True)
        s.close()
        continue
    try:
        kind = i % 10
        if kind == 0:
            s.sendall(b"RELEASE " + b"A" * 10000)              # oversize, no newline
        elif kind == 1:
            s.sendall(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) + b"\n")  # garbage
        elif kind == 2:
            s.sendall(b"RELEASE /half/a/requ")                # half a line, then nothing
    except OSError:
        pass                                                   # closed already (busy): read below
    s.setblocking(False)
    conns.append(s)
print("opened", len(conns), flush=True)

open_ = {s.fileno(): s for s in conns}
got = {}
last = None
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    r, _, _ = select.select(list(open_.values()) + [sys.stdin], [], [], 0.2)
    if sys.stdin in r and not sys.stdin.readline():
        break
    for s in r:
        if s is sys.stdin:
            continue
        try:
            data = s.recv(65536)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            data = b""
        fd = s.fileno()
        got[fd] = got.get(fd, b"") + data
        if not data:
            del open_[fd]
            s.close()
    words = [g.split(b" ", 2)[1].rstrip(b":\n") if g.startswith(b"ERR ") else b"other" for fd, g in got.items() if fd not in open_]
    closed = len(conns) - len(open_)
    counts = {k: sum(1 for w in words if w == k.encode()) for k in ("busy", "timeout", "too", "usage")}
    line = "state open %d closed %d busy %d timeout %d toolong %d usage %d other %d" % (
        len(open_), closed, counts["busy"], counts["timeout"], counts["too"], counts["usage"],
        closed - sum(counts.values()))
    if line != last:
        print(line, flush=True)
        last = line
    if not open_:
        print("allclosed", flush=True)
        break
