# Serve ~/site on http://127.0.0.1:8081 (POSTed forms go to /tmp/web/posts.jsonl); sourced by init.
mkdir -p /tmp/web
start_site() {
  setsid -f python3 /tmp/web/site.py 8081 "$HOME/site" /tmp/web/posts.jsonl > /tmp/web/site.err 2>&1
  for i in $(seq 100); do
    python3 -c 'import socket; socket.create_connection(("127.0.0.1", 8081)).close()' 2>/dev/null && return 0
    sleep 0.05
  done
  cat /tmp/web/site.err >&2; return 1
}
