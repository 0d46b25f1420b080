#!/usr/bin/env python3
"""Ask the IRC server something for an oracle: ircq.py 'NAMES #team' ... prints the server's replies."""
import os
import socket
import sys


def main() -> int:
    sock = socket.create_connection(("127.0.0.1", 6667), timeout=5)
    nick = f"oracle{os.getpid() % 100000}"
    sock.sendall(f"NICK {nick}\r\nUSER {nick} 0 * :oracle\r\n".encode())
    buffer, registered = b"", False
    while True:
        data = sock.recv(4096)
        if not data:
            return 1
        buffer += data
        while b"\r\n" in buffer:
            raw, buffer = buffer.split(b"\r\n", 1)
            line = raw.decode(errors="replace")
            parts = line.split(" ")
            if parts[0] == "PING":
                sock.sendall(f"PONG {' '.join(parts[1:])}\r\n".encode())
            elif len(parts) > 1 and parts[1] in ("376", "422") and not registered:
                registered = True
                for command in sys.argv[1:]:
                    sock.sendall((command + "\r\n").encode())
                sock.sendall(b"PING :oracle-done\r\n")
            elif registered and len(parts) > 1 and parts[1] == "PONG":
                return 0
            elif registered:
                print(line)


if __name__ == "__main__":
    sys.exit(main())
