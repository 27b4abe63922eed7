#!/usr/bin/env bash
# Usage: slurm_test.sh BIN SNAKEMAKE WORK SHARDS DATASET...
# Starts a single-node Slurm cluster on this machine, owned by this script: a generated
# munge key and slurm.conf under WORK/cluster, munged, slurmctld and slurmd in the
# foreground (-D) as background processes, logging into WORK/cluster. No cgroups
# (proctrack/linuxproc, task/none) and no accounting database (sacct answers "accounting
# storage is disabled"): job status comes from squeue, which keeps finished jobs for
# MinJobAge (3600 s), and finished jobs are also logged by jobcomp/filetxt. Once the node
# is idle, the workflow (workflow/Snakefile) runs on it through the Slurm executor
# plugin into WORK/workflow; then the job ids, with each job's rule and state, are listed
# from `squeue --states=all`, and the finished workspaces and validation reports are
# compared byte for byte with a single-machine `resonance run` (workflow_check.sh). The
# daemons are stopped on exit, whatever happened. Run as root (slurmd starts the jobs).
# SLURM_TEST_PORT (default 6817) is the controller's port, the node's is the next one.
set -euo pipefail
bin=$(realpath "$1") snakemake=$(realpath "$2") shards=$4
mkdir -p "$3"; work=$(realpath "$3"); shift 4
cluster=$work/cluster
host=$(hostname -s)
port=${SLURM_TEST_PORT:-6817}
say() { echo "test-slurm: $*" >&2; }

for tool in munged mungekey slurmctld slurmd sbatch srun squeue sinfo; do
  command -v "$tool" >/dev/null || { say "$tool not found: install slurm-wlm and munge (make deps-slurm)"; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { say "must run as root: slurmd starts jobs as their user"; exit 2; }

pids=()
stop() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
  [ ${#pids[@]} -eq 0 ] || say "stopped slurmd, slurmctld and munged"
}
trap stop EXIT
trap 'exit 130' INT TERM

rm -rf "$cluster"
mkdir -p "$cluster/munge" "$cluster/state" "$cluster/spool"
chmod 755 "$cluster/munge"   # munged needs the socket's folder readable by all
mungekey --create --keyfile="$cluster/munge/munge.key"
socket=$cluster/munge/munge.socket
munged --foreground --key-file="$cluster/munge/munge.key" --socket="$socket" \
  --pid-file="$cluster/munge/munged.pid" --log-file="$cluster/munge/munged.log" \
  --seed-file="$cluster/munge/munged.seed" > "$cluster/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { say "munged did not start:"; cat "$cluster/munged.out" >&2; exit 1; }

# Memory the node offers: half of this machine's, in MB.
memory=$(awk '/^MemTotal:/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cat > "$cluster/slurm.conf" <<EOF
# Single-node test cluster written by scripts/checks/slurm_test.sh.
ClusterName=resonance
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$cluster/jobcomp.txt
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=3600
SchedulerType=sched/backfill
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$cluster/slurm.conf
# Inside each job, the Slurm job-step plugin (snakemake-executor-plugin-slurm-jobstep
# 0.6.1) starts the rule with `srun` after removing every SLURM_* variable but the job's
# identity, SLURM_CONF included; clusters keep slurm.conf where srun finds it without
# one, this one keeps it here, so jobs see an srun that puts SLURM_CONF back.
mkdir -p "$cluster/bin"
printf '#!/bin/sh\nexport SLURM_CONF=%q\nexec %q "$@"\n' "$SLURM_CONF" "$(command -v srun)" > "$cluster/bin/srun"
chmod +x "$cluster/bin/srun"
export PATH=$cluster/bin:$PATH

slurmctld -D -c -f "$SLURM_CONF" > "$cluster/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" > "$cluster/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 60); do
  state=$(sinfo --noheader --nodes="$host" --format=%T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 1
done
if [ "$state" != idle ]; then
  say "node $host is not idle after 60 s (state: ${state:-none}); logs in $cluster:"
  tail -n 5 "$cluster/slurmctld.out" "$cluster/slurmd.out" >&2
  exit 1
fi
say "cluster up: $(sinfo --noheader --format='partition %P, node %N (%c CPUs, %m MB), %T'); $(sinfo --version)"

# The workflow's progress: each submission with its Slurm job id, and the step count.
datasets=$(printf '"%s",' "$@")
rm -rf "$work/workflow" "$work/slurm-logs"
set +o pipefail
"$snakemake" --executor slurm --jobs 4 --latency-wait 10 \
  --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5 \
  --slurm-logdir "$work/slurm-logs" --slurm-keep-successful-logs \
  --default-resources slurm_account=resonance slurm_partition=main runtime=60 \
  --config shards="$shards" work="$work/workflow" resonance="$bin" python="$(dirname "$snakemake")/python" \
    "datasets=[${datasets%,}]" \
  2>&1 | tee "$work/snakemake.log" | grep --line-buffered -E 'submitted with SLURM jobid|steps \(.*\) done' >&2
status=${PIPESTATUS[0]}
set -o pipefail
if [ "$status" -ne 0 ]; then
  say "the workflow failed (exit code $status); its log: $work/snakemake.log"
  tail -n 30 "$work/snakemake.log" >&2
  exit 1
fi

echo "test-slurm: Slurm jobs of the workflow (squeue --states=all):"
squeue --states=all --noheader --sort=i --format='%.6i  %.10T  %.8M  %N  %k' | sed 's/^/  /'
submitted=$(grep -c 'submitted with SLURM jobid' "$work/snakemake.log" || true)
completed=$(grep -c 'JobState=COMPLETED' "$cluster/jobcomp.txt" || true)
echo "test-slurm: $submitted jobs submitted, $completed completed in the job completion log ($cluster/jobcomp.txt)"
[ "$submitted" -gt 0 ] && [ "$completed" -eq "$submitted" ] || { say "not every job completed"; exit 1; }
"$(dirname "$0")/workflow_check.sh" "$bin" "$work/workflow" "test-slurm ($shards shards)" "$@"
