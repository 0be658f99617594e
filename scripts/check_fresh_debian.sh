#!/usr/bin/env bash
# Proves the newcomer set-up path on a minimal Debian 12 root: in a chroot made fresh from an
# untouched `debootstrap --variant=minbase bookworm` root, runs scripts/install_deps.sh,
# `cmake --preset release`, builds hipdnn-driver and the CPU plugins and runs the driver.
# The machine's CUDA toolkit (/usr/local/cuda) is bind-mounted read-only when present, so the
# configure also proves that the GPU plugins are found with Debian's own CMake modules.
#
# Usage (as root): scripts/check_fresh_debian.sh [--worktree] [--with-cudnn] [--keep] [-j N]
#   --worktree    copy the working tree (tracked and untracked, not ignored files) instead of
#                 the committed HEAD
#   --with-cudnn  also build the cuDNN plugin (when CUDA is present)
#   --keep        keep the run's directory (the chroot's changes) for inspection
#   -j N          build jobs (default 2)
# Environment:
#   HIPDNN_FRESH_ROOT    the cached minbase root (default ~/.cache/hipdnn-fresh-debian); built
#                        once, never modified by a run (each run works on an overlay over it)
#   HIPDNN_FRESH_WORK    where a run's directory goes (default ${TMPDIR:-/tmp})
#   HIPDNN_DEBIAN_MIRROR the mirror for debootstrap (default http://deb.debian.org/debian)
# Exit status non-zero, with the failed step named, when any step fails.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

use_worktree=0
with_cudnn=0
keep=0
jobs=2
while [[ $# -gt 0 ]]; do
    case "$1" in
        --worktree) use_worktree=1 ;;
        --with-cudnn) with_cudnn=1 ;;
        --keep) keep=1 ;;
        -j) jobs=${2:?-j needs a number}; shift ;;
        -j*) jobs=${1#-j} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "check_fresh_debian: unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
cache_root=${HIPDNN_FRESH_ROOT:-$HOME/.cache/hipdnn-fresh-debian}
mirror=${HIPDNN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cuda_link=/usr/local/cuda

step="start"
run_dir=""
merged=""
mounts=()
start_time=$SECONDS

log() { echo "== check_fresh_debian [$(date +%T)]: $*"; }

chroot_pids() {  # the processes still running in this run's chroot (all started by this script)
    local proc
    for proc in /proc/[0-9]*; do
        [[ "$(readlink "$proc/root" 2>/dev/null)" == "$merged" ]] && echo "${proc#/proc/}"
    done
    return 0
}

cleanup() {
    local status=$?
    set +e
    local i pids signal
    if [[ -n "$merged" ]]; then
        for signal in TERM TERM KILL; do
            pids=$(chroot_pids)
            [[ -z "$pids" ]] && break
            # shellcheck disable=SC2086 # one pid a word
            kill -s $signal $pids 2>/dev/null
            sleep 2
        done
    fi
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" ||
            echo "check_fresh_debian: could not unmount ${mounts[i]}" >&2
    done
    if [[ -n "$run_dir" && -d "$run_dir" ]]; then
        if grep -q " ${run_dir}/" /proc/mounts; then
            echo "check_fresh_debian: something is still mounted under $run_dir; leaving it in place" >&2
        elif [[ $keep -eq 1 ]]; then
            log "kept $run_dir (the run's changes to the root are in $run_dir/upper)"
        else
            rm -rf --one-file-system "$run_dir"
        fi
    fi
    local elapsed=$((SECONDS - start_time))
    if [[ $status -eq 0 ]]; then
        log "PASSED in ${elapsed}s"
    else
        echo "== check_fresh_debian: FAILED at step '$step' (exit status $status) after ${elapsed}s" >&2
    fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

do_mount() {  # do_mount TARGET MOUNT-ARGS...: mounts and records TARGET for the trap
    local target=$1
    shift
    mount "$@" "$target" || return
    mounts+=("$target")
}

bind_ro() {  # bind_ro SOURCE TARGET
    do_mount "$2" --bind "$1"
    mount -o remount,bind,ro "$2" || return
}

in_chroot() {  # in_chroot COMMAND: runs COMMAND with bash in the chroot, in the copied repository
    # In the background and waited for, so that a signal reaches the traps at once (the cleanup
    # then stops what still runs in the chroot).
    chroot "$merged" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -euo pipefail -c "cd /root/hipdnn && $1" </dev/null &
    wait $!
}

step="preconditions"
[[ $(id -u) -eq 0 ]] || { echo "check_fresh_debian: run as root (debootstrap, mount, chroot)" >&2; exit 1; }

# 1. The cached minimal root, built once.
if [[ ! -x "$cache_root/bin/bash" ]]; then
    step="debootstrap"
    if ! command -v debootstrap >/dev/null; then
        log "installing debootstrap"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    fi
    log "building the minimal Debian 12 root in $cache_root (once)"
    mkdir -p "$(dirname "$cache_root")"
    partial="$cache_root.partial.$$"
    rm -rf --one-file-system "$partial"
    debootstrap --variant=minbase bookworm "$partial" "$mirror"
    rm -f "$partial"/var/cache/apt/archives/*.deb
    rm -rf --one-file-system "$cache_root"
    mv "$partial" "$cache_root"
fi
log "minimal root: $cache_root"

# 2. A fresh root for this run: an overlay over the cached root (a full copy where overlayfs is
#    not available), so the cached root stays untouched minbase.
step="fresh root"
run_dir=$(mktemp -d "${HIPDNN_FRESH_WORK:-${TMPDIR:-/tmp}}/hipdnn-fresh.XXXXXX")
merged="$run_dir/root"
mkdir -p "$run_dir/upper" "$run_dir/work" "$merged"
if do_mount "$merged" -t overlay overlay \
        -o "lowerdir=$cache_root,upperdir=$run_dir/upper,workdir=$run_dir/work" 2>/dev/null; then
    log "fresh root: overlay at $merged"
else
    log "overlayfs unavailable; copying the root to $merged"
    cp -a "$cache_root/." "$merged/"
fi

step="mounts"
do_mount "$merged/proc" -t proc proc
bind_ro /sys "$merged/sys"
do_mount "$merged/dev" --bind /dev
if [[ -d /dev/pts && -d "$merged/dev/pts" ]]; then
    do_mount "$merged/dev/pts" --bind /dev/pts
fi
rm -f "$merged/etc/resolv.conf"
cp -L /etc/resolv.conf "$merged/etc/resolv.conf"

have_cuda=0
if [[ -e "$cuda_link/include/cuda_runtime.h" ]]; then
    have_cuda=1
    cuda_dir=$(readlink -f "$cuda_link")
    mkdir -p "$merged$cuda_dir"
    bind_ro "$cuda_dir" "$merged$cuda_dir"
    if [[ -L "$cuda_link" ]]; then
        mkdir -p "$merged$(dirname "$cuda_link")"
        ln -sfn "$(readlink "$cuda_link")" "$merged$cuda_link"
    fi
    log "CUDA toolkit: $cuda_dir bind-mounted read-only"
else
    log "no CUDA toolkit in $cuda_link; the GPU plugins will be skipped"
fi

# 3. The repository: the committed HEAD, or the working tree with --worktree.
step="copy repository"
mkdir -p "$merged/root/hipdnn"
if [[ $use_worktree -eq 1 ]]; then
    log "copying the working tree of $repo"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
        tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$merged/root/hipdnn"
else
    log "copying $repo at HEAD $(git -C "$repo" rev-parse --short HEAD)"
    git -C "$repo" archive --format=tar HEAD | tar -xf - -C "$merged/root/hipdnn"
fi

# 4. The newcomer's path, inside the chroot.
step="scripts/install_deps.sh"
log "$step"
in_chroot "scripts/install_deps.sh"

step="stock CMake modules"
# The chroot's CMake comes from Debian's mirror: its modules must be unmodified.
# shellcheck disable=SC2016 # expanded by the chroot's shell
in_chroot 'modified=$(dpkg -V cmake-data 2>&1) && [[ -z "$modified" ]] || { echo "$modified"; exit 1; }'

step="cmake --preset release"
log "$step"
in_chroot "cmake --preset release 2>&1 | tee /root/configure.log"
if [[ $have_cuda -eq 1 ]]; then
    step="GPU plugins found at configure"
    in_chroot "grep -q 'with cuDNN found; building the GPU plugins' /root/configure.log"
fi

targets=(hipdnn-driver cpu_reference hipdnn_plugin_onednn)
if [[ $with_cudnn -eq 1 && $have_cuda -eq 1 ]]; then
    targets+=(hipdnn_plugin_cudnn)
fi
step="build ${targets[*]}"
log "$step"
in_chroot "cmake --build build/release -j $jobs --target ${targets[*]}"

step="hipdnn-driver list"
log "$step"
in_chroot "build/release/bin/hipdnn-driver list 2>&1 | tee /root/list.log"
for engine in CPU_REFERENCE_ENGINE ONEDNN_ENGINE; do
    step="hipdnn-driver list shows $engine"
    in_chroot "grep -q $engine /root/list.log"
done

step="hipdnn-driver --device cpu demo --case matmul-bias-gelu"
log "$step"
in_chroot "build/release/bin/hipdnn-driver --device cpu demo --case matmul-bias-gelu"

step="done"
