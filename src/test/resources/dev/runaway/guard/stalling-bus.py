# A user's "session bus" that stalls whoever joins it (DesktopNoticesDoorsTest), run as that user.
#   backlog PATH: listens with a backlog of 0 and fills it with its own connections, never
#                 accepts: a blocking connect(2) to PATH waits for ever.
#   silent PATH:  accepts and never answers (the authentication waits for ever); prints
#                 "accepted N" and "eof N" as peers come and go.
# Prints "ready" once it stalls; ends when its input closes.
import os, select, socket, sys

mode, path = sys.argv[1], sys.argv[2]
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
os.chmod(path, 0o600)
fillers = []
if mode == "backlog":
    srv.listen(0)
    while True:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect(path)
        except BlockingIOError:
            c.close()
            break
        fillers.append(c)
    print("ready backlog full after", len(fillers), flush=True)
    sys.stdin.read()
else:
    srv.listen(16)
    print("ready", flush=True)
    peers, accepted, eof = [], 0, 0
    while True:
        r, _, _ = select.select([srv, sys.stdin] + peers, [], [])
        if sys.stdin in r and not os.read(sys.stdin.fileno(), 4096):
            break
        if srv in r:
            peers.append(srv.accept()[0])
            accepted += 1
            print("accepted", accepted, flush=True)
        for p in [p for p in peers if p in r]:
            try:
                data = p.recv(4096)
            except OSError:
                data = b""
            if not data:
                peers.remove(p)
                p.close()
                eof += 1
                print("eof", eof, flush=True)
