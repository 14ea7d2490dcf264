"""Runs a command as systemd's socket activation and Type=notify would.

Binds a listening TCP socket on 127.0.0.1 (a free port), binds a datagram
socket for notifications, and runs the command with the listening socket
as descriptor 3, LISTEN_FDS=1, LISTEN_PID of the command and NOTIFY_SOCKET
set. Prints "port N" first, then "notify STATE" for each notification
(stdout, line-buffered); the command's own output goes to stderr. SIGTERM
and SIGINT are passed on to the command. Exits with the command's status.

    python3 sd_activate.py COMMAND [ARGS...]
"""
import os
import select
import signal
import socket
import sys
import tempfile

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(128)
tmp = tempfile.mkdtemp(prefix="dropjudge-notify-")
notify_path = os.path.join(tmp, "notify")
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(notify_path)
print("port", listener.getsockname()[1], flush=True)

pid = os.fork()
if pid == 0:
    os.dup2(listener.fileno(), 3)
    os.set_inheritable(3, True)
    os.dup2(2, 1)  # the command's stdout (start line, access log) to stderr
    env = dict(os.environ, LISTEN_FDS="1", LISTEN_PID=str(os.getpid()),
               LISTEN_FDNAMES="dropjudge.socket", NOTIFY_SOCKET=notify_path)
    os.execvpe(sys.argv[1], sys.argv[1:], env)

listener.close()
for sig in (signal.SIGTERM, signal.SIGINT):
    signal.signal(sig, lambda s, f: os.kill(pid, s))
status = None
while status is None:
    try:
        ready, _, _ = select.select([notify], [], [], 0.05)
    except InterruptedError:
        continue
    if ready:
        print("notify", notify.recv(4096).decode(), flush=True)
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(st)
while select.select([notify], [], [], 0)[0]:
    print("notify", notify.recv(4096).decode(), flush=True)
os.unlink(notify_path)
os.rmdir(tmp)
sys.exit(status if status >= 0 else 128 - status)
