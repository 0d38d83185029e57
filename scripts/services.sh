#!/usr/bin/env bash
# Starts what the test suite needs on loopback, installing Debian packages that are missing.
# Source it: it exports TEST_DATABASE_URL, TEST_REDIS_URL and defines stop_services.
# Under CI=true a dependency that cannot be installed or started fails the run.
set -euo pipefail

SERVICES_DIR="${SERVICES_DIR:-$(pwd)/.test-services}"
mkdir -p "$SERVICES_DIR"
STARTED_PIDS=()

fail() { echo "services: $*" >&2; exit 1; }

need_packages() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v docker-compose >/dev/null || docker compose version >/dev/null 2>&1 || missing+=(docker-compose)
  [ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  command -v caddy >/dev/null || missing+=(caddy)
  # Let's Encrypt's ACME test server; the package ships pebble-challtestsrv, the tests' DNS server, too.
  command -v pebble >/dev/null || missing+=(pebble)
  command -v restic >/dev/null || missing+=(restic)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v git >/dev/null || missing+=(git)
  command -v busybox >/dev/null || [ -x /bin/busybox ] || missing+=(busybox-static)
  command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || missing+=(openssh-server)
  # The Swarm tests' cluster registry (scripts/cluster/, apps/server/src/infra/swarm/registryImage.ts).
  [ -x /usr/bin/docker-registry ] || missing+=(docker-registry)
  command -v openssl >/dev/null || missing+=(openssl)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "services: installing ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
        || fail "could not install ${missing[*]}"
    else
      fail "missing ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}"
    fi
  fi
}

# The Docker Engine is the machine's, not the run's: once started it is left running, because another
# build on this machine may be using it by the time this run ends.
start_docker() {
  if docker info >/dev/null 2>&1; then return; fi
  echo "services: starting dockerd (left running for the machine)"
  # A session of its own: stopping the run's process group (a cancelled or timed-out job) must not stop it.
  setsid -f dockerd >"$SERVICES_DIR/dockerd.log" 2>&1
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && return; sleep 1; done
  fail "dockerd did not start; see $SERVICES_DIR/dockerd.log"
}

# No registry is reachable, so the test repositories build FROM this offline image.
build_busybox_image() {
  if docker image inspect busybox:1.36 >/dev/null 2>&1; then return; fi
  echo "services: building busybox:1.36 from Debian's busybox-static"
  local ctx
  ctx=$(mktemp -d)
  cp "$(command -v busybox || echo /bin/busybox)" "$ctx/busybox"
  cat >"$ctx/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
CMD ["sh"]
DOCKERFILE
  docker build -q -t busybox:1.36 "$ctx" >/dev/null || fail "could not build busybox:1.36"
  rm -rf "$ctx"
}

# A free loopback port, asked of the OS.
free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# Each run gets a PostgreSQL of its own (unless TEST_PG_PORT names one to share): a shared server would be
# stopped by whichever run ends first, under the other.
start_postgres() {
  local dir="$SERVICES_DIR/pg" port="${TEST_PG_PORT:-}" bin=/usr/lib/postgresql/15/bin
  if [ -n "$port" ] && pg_isready -h 127.0.0.1 -p "$port" >/dev/null 2>&1; then
    export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
    return
  fi
  [ -n "$port" ] || port=$(free_port)
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  rm -rf "$dir" && mkdir -p "$dir" && chown postgres "$dir"
  runuser -u postgres -- "$bin/initdb" -D "$dir/data" --auth=trust -U postgres >/dev/null
  runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
    || fail "PostgreSQL did not start; see $dir/log"
  PG_DIR="$dir/data"
}

# Each run gets a Redis of its own (unless TEST_REDIS_PORT names one to share): test files select Redis
# databases by worker number and flush them, so two runs sharing one server would flush each other's keys.
start_redis() {
  local port="${TEST_REDIS_PORT:-}"
  if [ -n "$port" ] && redis-cli -p "$port" ping >/dev/null 2>&1; then
    export TEST_REDIS_URL="redis://127.0.0.1:$port"
    return
  fi
  [ -n "$port" ] || port=$(free_port)
  export TEST_REDIS_URL="redis://127.0.0.1:$port"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --logfile "$SERVICES_DIR/redis.log" >/dev/null 2>&1 &
  STARTED_PIDS+=($!)
  for _ in $(seq 1 30); do redis-cli -p "$port" ping >/dev/null 2>&1 && return; sleep 0.2; done
  fail "Redis did not start; see $SERVICES_DIR/redis.log"
}

stop_services() {
  if [ -n "${PG_DIR:-}" ]; then
    runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$PG_DIR" -m fast stop >/dev/null 2>&1 || true
  fi
  for pid in "${STARTED_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
}

# Caddy 2.6 binds a new listener at every configuration change and closes the old one; Linux resets the
# connections still queued on the closed socket unless tcp_migrate_req hands them over. The README asks
# production hosts for the same setting; here it is set when we may (root), and said when we may not.
migrate_queued_connections() {
  local setting=/proc/sys/net/ipv4/tcp_migrate_req
  [ -f "$setting" ] || return 0
  [ "$(cat "$setting")" = 1 ] && return 0
  if [ "$(id -u)" = 0 ] && sysctl -q -w net.ipv4.tcp_migrate_req=1 2>/dev/null; then
    echo "services: net.ipv4.tcp_migrate_req=1 (Caddy's reloads reset no queued connection)"
  else
    echo "services: net.ipv4.tcp_migrate_req is 0: a Caddy reload can reset a connection; set it with sysctl -w net.ipv4.tcp_migrate_req=1" >&2
  fi
}

need_packages
migrate_queued_connections
start_docker
build_busybox_image
start_postgres
start_redis
