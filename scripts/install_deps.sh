#!/usr/bin/env bash
# Installs the Debian packages hipdnn builds against, only those that are missing.
# Idempotent; prints nothing when everything is present.
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config
    flatbuffers-compiler libflatbuffers-dev
    libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    libdnnl-dev ocl-icd-opencl-dev
    python3-dev python3-venv python3-pip
)
# Optional extras: clang for the libFuzzer target, python3-torch for golden data and the
# PyTorch side of the benchmarks.
if [[ "${1:-}" == "--with-extras" ]]; then
    packages+=(clang python3-torch)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing missing packages: ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install_deps.sh: run as root (sudo is not installed)" >&2; exit 1; }
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
