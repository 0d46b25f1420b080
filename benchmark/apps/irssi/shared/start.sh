# Start the local IRC server and the scripted users; sourced by each task's init.
# usage: start_irc; then bot ARGS... (each bot waits until it has joined its channels)
mkdir -p /tmp/irc
start_irc() {
  setsid -f ngircd -n -f /tmp/irc/ngircd.conf > /tmp/irc/ngircd.log 2>&1
  for i in $(seq 100); do
    python3 -c 'import socket; socket.create_connection(("127.0.0.1", 6667)).close()' 2>/dev/null && return 0
    sleep 0.05
  done
  cat /tmp/irc/ngircd.log >&2; return 1
}
bot() {  # bot NICK ARGS...
  nick=$1; shift
  rm -f /tmp/irc/$nick.ready
  setsid -f python3 /tmp/irc/ircbot.py --nick "$nick" --log /tmp/irc/$nick.log --ready /tmp/irc/$nick.ready "$@" > /tmp/irc/$nick.err 2>&1
  for i in $(seq 100); do [ -e /tmp/irc/$nick.ready ] && return 0; sleep 0.05; done
  cat /tmp/irc/$nick.err >&2; return 1
}
heard() {  # heard REGEX [LOG]: the line shows up in a bot's log within two seconds
  for i in $(seq 40); do grep -qE "$1" "${2:-/tmp/irc/carol.log}" 2>/dev/null && return 0; sleep 0.05; done
  return 1
}
