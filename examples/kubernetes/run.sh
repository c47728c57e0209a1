#!/bin/bash
# Run a sharded evaluation on Kubernetes and merge it:
#   run.sh hero      hero-evaluate-job.yaml, then merge-job.yaml (BENCH=hero)
#   run.sh compass   compass-evaluate-job.yaml, then merge-job.yaml with BENCH=compass, OUT=/results/compass
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=${1:?usage: run.sh hero|compass}
case "$BENCH" in hero | compass) ;; *) echo "run.sh: hero or compass, got $BENCH" >&2; exit 2 ;; esac
kubectl delete job "kfbench-$BENCH-eval" kfbench-merge --ignore-not-found
kubectl apply -f "$HERE/$BENCH-evaluate-job.yaml"
kubectl wait --for=condition=complete --timeout=-1s "job/kfbench-$BENCH-eval"
sed -e "s|value: hero }|value: $BENCH }|" -e "s|/results/hero|/results/$BENCH|" "$HERE/merge-job.yaml" | kubectl apply -f -
kubectl wait --for=condition=complete --timeout=-1s job/kfbench-merge
kubectl logs job/kfbench-merge
