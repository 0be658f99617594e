#!/usr/bin/env bash
# Builds the Python package against an existing build tree (default: build/release) in a virtual
# environment and runs its pytest suite. The venv (build/pyenv) is kept between runs; any failing
# step, a pip download included, fails the script.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:-$root/build/release}" && pwd)
venv=${HIPDNN_PYTHON_VENV:-$root/build/pyenv}

# Debian's interpreter: its headers, venv and pip come with python3-dev, python3-venv and
# python3-pip, which install_deps.sh installs when they are missing.
"$root/scripts/install_deps.sh"
python=/usr/bin/python3
[[ -x $python ]] || python=$(command -v python3)
requirements=("scikit-build-core>=0.10" "nanobind>=2.0" pytest)
venv_options=()
if "$python" -c "import torch, numpy" 2>/dev/null; then
    # Debian's torch (python3-torch, an extra of install_deps.sh) runs the hipdnn.torch tests; it
    # and the NumPy it was built with come from the system.
    venv_options=(--system-site-packages)
else
    requirements+=(numpy)
fi
if [[ ! -x $venv/bin/python ]]; then
    "$python" -m venv "${venv_options[@]}" "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
HIPDNN_BUILD_DIR=$build_dir "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps "$root/python"
# From outside the source tree, so that the installed package is the one imported.
cd "$root/python/tests"
"$venv/bin/python" -m pytest -q .
