#!/usr/bin/env bash
# Builds real database images offline from Debian's packages (no registry is reachable here):
# local/debian:bookworm (debootstrap), then local/postgres:15, local/mariadb:10.11 and local/redis:7 on it.
# Each image is built once per machine: an existing tag is kept. Source it or run it.
set -euo pipefail

debian_mirror() {
  local uri
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

build_debian_base() {
  docker image inspect local/debian:bookworm >/dev/null 2>&1 && return
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  local rootfs
  rootfs=$(mktemp -d)
  echo "database images: debootstrap bookworm (about 2.5 min, once per machine)"
  debootstrap --variant=minbase bookworm "$rootfs" "$(debian_mirror)" >"$rootfs.log" 2>&1 \
    || { echo "debootstrap failed; see $rootfs.log" >&2; return 1; }
  tar -C "$rootfs" -c . | docker import - local/debian:bookworm >/dev/null
  rm -rf "$rootfs" "$rootfs.log"
}

# build_image TAG DOCKERFILE-TEXT
build_image() {
  docker image inspect "$1" >/dev/null 2>&1 && return
  local ctx
  ctx=$(mktemp -d)
  printf '%s\n' "$2" >"$ctx/Dockerfile"
  echo "database images: building $1"
  docker build -q -t "$1" "$ctx" >/dev/null || { rm -rf "$ctx"; echo "could not build $1" >&2; return 1; }
  rm -rf "$ctx"
}

build_database_images() {
  build_debian_base
  build_image local/postgres:15 'FROM local/debian:bookworm
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
RUN mkdir -p /var/lib/postgresql/data /run/postgresql && chown -R postgres:postgres /var/lib/postgresql /run/postgresql
USER postgres
CMD ["sh", "-c", "[ -s \"$PGDATA/PG_VERSION\" ] || initdb -D \"$PGDATA\" --auth=trust -U postgres >/dev/null; exec postgres -D \"$PGDATA\" -c listen_addresses=*"]'
  build_image local/redis:7 'FROM local/debian:bookworm
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /data && chown redis:redis /data
WORKDIR /data
USER redis
CMD ["redis-server", "--dir", "/data", "--bind", "0.0.0.0", "--protected-mode", "no"]'
  build_image local/mariadb:10.11 'FROM local/debian:bookworm
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mariadb-server && rm -rf /var/lib/apt/lists/*
RUN mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
USER mysql
CMD ["sh", "-c", "[ -d /var/lib/mysql/mysql ] || mariadb-install-db --user=mysql --datadir=/var/lib/mysql >/dev/null; exec mariadbd --datadir=/var/lib/mysql --bind-address=0.0.0.0"]'
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then build_database_images; fi
