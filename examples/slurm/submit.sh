#!/bin/bash
# Submit a sharded step and its merge as a dependent job:
#   submit.sh track N           hero track rebuild in N shards, then hero track verify
#   submit.sh hero N            hero evaluate in N shards, then kfbench merge hero
#   submit.sh compass N         compass evaluate in N shards, then kfbench merge compass
# Inputs come from the environment (see each .sbatch). SBATCH_ARGS: extra sbatch options for both
# jobs (partition, account …); AFTER_ARGS: for the dependent job only (AFTER_ARGS=--wait blocks until
# it ends and exits with its status). Prints the array's and the dependent job's ids.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
STEP=${1:?usage: submit.sh track|hero|compass N}
N=${2:?usage: submit.sh track|hero|compass N}
# shellcheck disable=SC2086
sub() { sbatch --parsable ${SBATCH_ARGS:-} "$@"; }
case "$STEP" in
  track) array=track-rebuild.sbatch; after=track-verify.sbatch ;;
  hero) array=hero-evaluate.sbatch; after=merge.sbatch; export BENCH=hero ;;
  compass) array=compass-evaluate.sbatch; after=merge.sbatch; export BENCH=compass ;;
  *) echo "submit.sh: unknown step $STEP (track, hero or compass)" >&2; exit 2 ;;
esac
JOB=$(sub --array="1-$N" --export=ALL,SHARDS="$N" "$HERE/$array")
JOB=${JOB%%;*}
echo "array $JOB"
# shellcheck disable=SC2086
sub --dependency="afterok:$JOB" --kill-on-invalid-dep=yes --export=ALL ${AFTER_ARGS:-} "$HERE/$after"
