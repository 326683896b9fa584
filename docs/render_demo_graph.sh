#!/usr/bin/env bash
# Regenerates docs/demo_graph.svg, the demo model's partitioned program as Graphviz draws it (the
# README shows it): runs `switchyard demo --save`, then `switchyard inspect --format dot | dot`.
# Needs a build of the `switchyard` command (./run.sh makes one) and Graphviz (`apt-get install graphviz`).
#
#   docs/render_demo_graph.sh [path/to/switchyard]
set -euo pipefail
cd "$(dirname "$0")/.."
switchyard=${1:-build/release/tools/switchyard/switchyard}
command -v dot > /dev/null || { echo "render_demo_graph.sh: needs Graphviz's dot (apt-get install graphviz)" >&2; exit 1; }
program=$(mktemp --suffix=.pte)
trap 'rm -f "$program"' EXIT
"$switchyard" demo --save "$program" > /dev/null
"$switchyard" inspect "$program" --format dot | dot -Tsvg -o docs/demo_graph.svg
echo "wrote docs/demo_graph.svg"
