#!/usr/bin/env bash
# Runs every CLI command on every conversation of the JP corpus and writes
# each run's stdout, stderr and exit code into OUT, so two trees can be
# compared with `diff -r` (a refactor must leave the CLI's output
# byte-identical).
#
# usage: tools/house/cli-snapshot.sh OUT [CORPUS]
#   OUT     a folder to create (emptied first)
#   CORPUS  the JP conversations folder (default ../shared/corpus/jp-conversations
#           beside the repository)
# It runs the src/cli/main.ts of the checkout it sits in, or of CLI_REPO when
# set (to snapshot an older commit with this script and config).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=${CLI_REPO:-$(cd "$here/../.." && pwd)}
out=${1:?usage: cli-snapshot.sh OUT [CORPUS]}
corpus=${2:-$here/../../../shared/corpus/jp-conversations}
# recommend prints the config's path: one fixed path keeps two trees' outputs comparable.
config=/tmp/cli-snapshot.toml
cp "$here/cli-snapshot.toml" "$config"
corpus=$(cd "$corpus" && pwd)
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The checkout's own tsx (what `npx tsx` runs), without npx's start-up cost per run.
cli() { (cd "$repo" && node_modules/.bin/tsx src/cli/main.ts "$@"); }

# run NAME ARGS...: one run, recorded as NAME.stdout, NAME.stderr, NAME.rc.
run() {
  local name=$1
  shift
  local rc=0
  cli "$@" >"$out/$name.stdout" 2>"$out/$name.stderr" || rc=$?
  echo "$rc" >"$out/$name.rc"
}

now=2030-01-01T00:00:00Z
for dir in "$corpus"/*/; do
  n=$(basename "$dir")
  events=$dir/events.json
  [ -f "$events" ] || continue
  run "$n.report" report --config "$config" "$events"
  run "$n.report-json" report --json --config "$config" "$events"
  run "$n.project" project "$events"
  run "$n.sanitize" sanitize "$events"
  run "$n.compact" compact --config "$config" --now "$now" "$events"
  run "$n.compact-dry-run" compact --dry-run --config "$config" "$events"
  run "$n.recommend" recommend --config "$config" "$events"
done
run ALL.report-by-conversation report --by-conversation --config "$config" "$corpus"
run ALL.recommend-json recommend --json --config "$config" "$corpus"
echo "$(find "$out" -name '*.rc' | wc -l) runs written to $out"
