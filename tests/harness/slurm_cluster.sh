#!/usr/bin/env bash
# slurm_cluster.sh start|stop DIR [PORT_BASE] - a single-node Slurm on loopback for tests.
#
# start: munged (own key, socket and pid under DIR/munge), slurmctld and slurmd
# with DIR/slurm.conf (SlurmctldHost=NodeName=localhost, proctrack/linuxproc,
# task/none, no accounting, immediate scheduling), ports PORT_BASE and
# PORT_BASE+1. Waits until the node is idle; prints `export SLURM_CONF=...`.
# The daemons fork and exit 0 even when a port is taken, so start checks that
# the processes named by the pid files are alive. stop: kills the daemons
# named by the pid files in DIR.
set -euo pipefail
cmd=${1:?usage: slurm_cluster.sh start|stop DIR [PORT_BASE]}
dir=${2:?usage: slurm_cluster.sh start|stop DIR [PORT_BASE]}
port=${3:-$((20000 + $$ % 20000))}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
  for p in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    if alive "$p"; then
      pid=$(cat "$p")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "slurm_cluster.sh: unknown command '$cmd'" >&2; exit 2; }

for b in munged slurmctld slurmd sbatch squeue; do
  command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || { echo "missing $b" >&2; exit 3; }
done
export PATH="$PATH:/usr/sbin"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 755 "$dir" "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
  --seed-file="$dir/munge/munged.seed"
user=$(id -un)
cpus=$(nproc)
cat >"$dir/slurm.conf" <<CONF
ClusterName=opforge-test
SlurmctldHost=localhost
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
MinJobAge=300
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=opforge Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
  if alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" &&
    [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.1
done
echo "slurm_cluster.sh: the cluster did not come up (ports $port, $((port + 1)))" >&2
for f in "$dir/munge/munged.log" "$dir/slurmctld.log" "$dir/slurmd.log"; do
  [ -f "$f" ] && { echo "== $f" >&2; tail -n 15 "$f" >&2; }
done
stop
exit 1
