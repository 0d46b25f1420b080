# Start the local API on 127.0.0.1:8080; sourced by each task's init. Requests go to /tmp/http/requests.jsonl.
mkdir -p /tmp/http
start_api() {
  setsid -f python3 /tmp/http/server.py 8080 /tmp/http/requests.jsonl "$@" > /tmp/http/server.err 2>&1
  for i in $(seq 100); do
    python3 -c 'import socket; socket.create_connection(("127.0.0.1", 8080)).close()' 2>/dev/null && return 0
    sleep 0.05
  done
  cat /tmp/http/server.err >&2; return 1
}
