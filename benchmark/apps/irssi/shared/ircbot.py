#!/usr/bin/env python3
"""A scripted IRC user for tasks: joins channels, sets topics, greets joiners, logs what it hears.

Every line the server sends it goes to the log file (flushed at once), which the task oracles read.
"""
import argparse
import socket
import sys
import time


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--nick", required=True)
    p.add_argument("--join", default="", help="comma-separated channels")
    p.add_argument("--topic", action="append", default=[], help="CHANNEL=TEXT, set after joining")
    p.add_argument("--say", action="append", default=[], help="CHANNEL=TEXT, said after joining")
    p.add_argument("--greet", action="append", default=[],
                   help="CHANNEL=TEXT said once when someone else joins; {nick} is the joiner")
    p.add_argument("--op-joiners", action="store_true", help="give channel operator status to joiners")
    p.add_argument("--log", required=True)
    p.add_argument("--ready", required=True, help="file created once every channel is joined")
    p.add_argument("--port", type=int, default=6667)
    args = p.parse_args()

    for _ in range(200):
        try:
            sock = socket.create_connection(("127.0.0.1", args.port))
            break
        except OSError:
            time.sleep(0.05)
    else:
        return 1
    log = open(args.log, "a", buffering=1)

    def send(line: str) -> None:
        sock.sendall((line + "\r\n").encode())

    send(f"NICK {args.nick}")
    send(f"USER {args.nick} 0 * :{args.nick}")
    channels = [c for c in args.join.split(",") if c]
    pending = set(c.lower() for c in channels)
    greets = dict(g.split("=", 1) for g in args.greet)
    buffer = b""
    while True:
        data = sock.recv(4096)
        if not data:
            return 0
        buffer += data
        while b"\r\n" in buffer:
            raw, buffer = buffer.split(b"\r\n", 1)
            line = raw.decode(errors="replace")
            log.write(line + "\n")
            parts = line.split(" ")
            if parts[0] == "PING":
                send("PONG " + " ".join(parts[1:]))
                continue
            if len(parts) < 2:
                continue
            source = parts[0][1:].split("!", 1)[0] if parts[0].startswith(":") else ""
            command = parts[1]
            if command == "001":
                for channel in channels:
                    send(f"JOIN {channel}")
            elif command == "JOIN":
                channel = parts[2].lstrip(":")
                if source == args.nick:
                    for topic in args.topic:
                        target, text = topic.split("=", 1)
                        if target.lower() == channel.lower():
                            send(f"TOPIC {channel} :{text}")
                    for say in args.say:
                        target, text = say.split("=", 1)
                        if target.lower() == channel.lower():
                            send(f"PRIVMSG {channel} :{text}")
                    pending.discard(channel.lower())
                    if not pending:
                        open(args.ready, "w").close()
                else:
                    if args.op_joiners:
                        send(f"MODE {channel} +o {source}")
                    text = greets.pop(channel, None)
                    if text is not None:
                        send(f"PRIVMSG {channel} :{text.format(nick=source)}")


if __name__ == "__main__":
    sys.exit(main())
