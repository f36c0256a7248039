#!/usr/bin/env bash
# Makes a container engine and the offline base image available; safe to run again (each step checks first).
#
# 1. installs docker.io, debootstrap, patch and git from Debian when missing;
# 2. starts `dockerd --bridge=none --iptables=false` when no engine answers (bounded wait for the socket);
# 3. builds `specweave-base:bookworm` (Debian minbase + python3, pytest, git, patch, user `runner` uid 1000) only
#    when the tag is missing. The rootfs lives outside the repository (/var/tmp by default). The build holds a lock
#    (`flock` on setup.lock next to the rootfs): a second run at the same time waits, then finds the image.
#
# Environment: SPECWEAVE_BASE_IMAGE (default specweave-base:bookworm), SPECWEAVE_ROOTFS_DIR (default
# /var/tmp/specweave-rootfs), DEBIAN_MIRROR (default http://deb.debian.org/debian), DOCKERD_LOG (default
# /tmp/dockerd.log), SOCKET_WAIT_SEC (default 60), LOCK_WAIT_SEC (default 1800).
set -euo pipefail

IMAGE="${SPECWEAVE_BASE_IMAGE:-specweave-base:bookworm}"
ROOTFS_PARENT="${SPECWEAVE_ROOTFS_DIR:-/var/tmp/specweave-rootfs}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DOCKERD_LOG="${DOCKERD_LOG:-/tmp/dockerd.log}"
SOCKET_WAIT_SEC="${SOCKET_WAIT_SEC:-60}"
LOCK_WAIT_SEC="${LOCK_WAIT_SEC:-1800}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

T0=$(date +%s.%N)
step_start() { STEP_T0=$(date +%s.%N); echo "==> $1"; }
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
step_end() { echo "    done in $(elapsed "$STEP_T0") s"; }

# -- 1. packages ----------------------------------------------------------------------------------------------
step_start "packages (docker.io debootstrap patch git)"
missing=()
command -v dockerd >/dev/null 2>&1 || [ -x /usr/sbin/dockerd ] || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
command -v patch >/dev/null 2>&1 || missing+=(patch)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v flock >/dev/null 2>&1 || missing+=(util-linux)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "    installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
else
  echo "    all present"
fi
step_end
export PATH="$PATH:/usr/sbin:/sbin"

# -- 2. engine ------------------------------------------------------------------------------------------------
step_start "container engine"
if docker info >/dev/null 2>&1; then
  echo "    an engine answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'))"
else
  if [ -n "${DOCKER_HOST:-}" ] && [ "${DOCKER_HOST#unix://}" = "$DOCKER_HOST" ]; then
    echo "error: DOCKER_HOST=$DOCKER_HOST does not answer and is not a local socket this script can start" >&2
    exit 1
  fi
  echo "    starting dockerd --bridge=none --iptables=false (log: $DOCKERD_LOG)"
  # setsid + nohup: the daemon must outlive this script and the CI step that ran it.
  $SUDO setsid nohup dockerd --bridge=none --iptables=false >"$DOCKERD_LOG" 2>&1 < /dev/null &
  deadline=$(( $(date +%s) + SOCKET_WAIT_SEC ))
  until docker info >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "error: the engine did not answer within ${SOCKET_WAIT_SEC} s; last lines of $DOCKERD_LOG:" >&2
      tail -n 20 "$DOCKERD_LOG" >&2 || true
      exit 1
    fi
    sleep 0.3
  done
  echo "    engine up"
fi
step_end

# -- 3. base image ----------------------------------------------------------------------------------------------
step_start "base image $IMAGE"
image_present() { docker image inspect "$IMAGE" >/dev/null 2>&1; }
if ! image_present; then
  # Two runs at once must not build the same rootfs: the second would delete the first's half-built tree. The lock
  # sits next to the rootfs; the second run waits for it, then finds the image the first one built.
  $SUDO mkdir -p "$ROOTFS_PARENT"
  LOCK="$ROOTFS_PARENT/setup.lock"
  [ -e "$LOCK" ] || $SUDO touch "$LOCK"
  exec 9<"$LOCK"
  if ! flock -n 9; then
    echo "    waiting for another setup-docker.sh to finish (lock $LOCK, at most ${LOCK_WAIT_SEC} s)"
    flock -w "$LOCK_WAIT_SEC" 9 || { echo "error: another setup-docker.sh still holds $LOCK after ${LOCK_WAIT_SEC} s" >&2; exit 1; }
  fi
fi
if image_present; then
  echo "    present: $(docker image inspect --format '{{.Id}}' "$IMAGE")"
  step_end
else
  RAW="${IMAGE%%:*}-rootfs:${IMAGE##*:}"
  if ! docker image inspect "$RAW" >/dev/null 2>&1; then
    ROOTFS="$ROOTFS_PARENT/bookworm"
    # A half-finished debootstrap leaves an unusable tree; start from scratch rather than resume.
    if [ ! -f "$ROOTFS/.specweave-complete" ]; then
      $SUDO rm -rf "$ROOTFS"
      sub=$(date +%s.%N)
      echo "    debootstrap into $ROOTFS (about a minute)"
      $SUDO debootstrap --variant=minbase --include=python3,python3-pytest,git,patch bookworm "$ROOTFS" "$MIRROR" \
        >"$ROOTFS_PARENT/debootstrap.log" 2>&1 || {
          echo "error: debootstrap failed; see $ROOTFS_PARENT/debootstrap.log" >&2
          tail -n 20 "$ROOTFS_PARENT/debootstrap.log" >&2
          exit 1
        }
      $SUDO rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
      $SUDO touch "$ROOTFS/.specweave-complete"
      echo "    debootstrap: $(elapsed "$sub") s"
    fi
    sub=$(date +%s.%N)
    $SUDO tar -C "$ROOTFS" --exclude=./.specweave-complete -c . | docker import - "$RAW" >/dev/null
    echo "    docker import $RAW: $(elapsed "$sub") s"
  fi
  sub=$(date +%s.%N)
  ctx=$(mktemp -d)
  cat >"$ctx/Dockerfile" <<EOF
FROM $RAW
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 LANG=C.UTF-8
RUN groupadd -g 1000 runner && useradd -m -u 1000 -g 1000 -s /bin/bash runner \\
 && git config --system user.email specweave@localhost && git config --system user.name specweave \\
 && git config --system --add safe.directory '*'
LABEL org.specweave.base="bookworm"
WORKDIR /repo
CMD ["/bin/bash"]
EOF
  # The legacy builder works offline with no buildx plugin; its deprecation notice is noise here.
  if ! DOCKER_BUILDKIT=0 docker build -q -t "$IMAGE" "$ctx" >"$ctx.log" 2>&1; then
    echo "error: docker build of $IMAGE failed:" >&2
    cat "$ctx.log" >&2
    exit 1
  fi
  rm -rf "$ctx" "$ctx.log"
  echo "    docker build $IMAGE: $(elapsed "$sub") s -> $(docker image inspect --format '{{.Id}}' "$IMAGE")"
  step_end
fi

echo "setup-docker: ready in $(elapsed "$T0") s"
