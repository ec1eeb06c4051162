#!/usr/bin/env bash
# CI helper: make GNU parallel and a working single-node Slurm (slurmctld + slurmd
# on this host, munge auth) available on a fresh Debian 12 machine, without systemd.
# Run as root. Idempotent: if `sinfo` already shows this node up, only the checks run.
# Quiet apart from `== ...` progress lines; on failure it prints the relevant log tails.
set -euo pipefail

if [[ $(id -u) -ne 0 ]]; then
  echo "cluster-up: must run as root" >&2
  exit 1
fi

WAIT_SECS=${CLUSTER_UP_WAIT_SECS:-60}
LOGDIR=/var/log/slurm
CTLD_LOG=$LOGDIR/slurmctld.log
SLURMD_LOG=$LOGDIR/slurmd.log
MUNGE_KEY=/etc/munge/munge.key
CONF=/etc/slurm/slurm.conf
CGROUP_CONF=/etc/slurm/cgroup.conf
NODE=$(hostname -s)
WORK=$(mktemp -d /tmp/cluster-up.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

die() {
  echo "cluster-up: FAILED: $*" >&2
  local f
  for f in "$CTLD_LOG" "$SLURMD_LOG" /var/log/munge/munged.log; do
    if [[ -s $f ]]; then
      echo "---- tail $f" >&2
      tail -n 30 "$f" >&2
    fi
  done
  if command -v sinfo >/dev/null 2>&1; then
    echo "---- sinfo -N -l / squeue" >&2
    sinfo -N -l 2>&1 | tail -n 5 >&2 || true
    squeue 2>&1 | tail -n 10 >&2 || true
  fi
  for f in "$WORK"/*.out; do
    if [[ -s $f ]]; then
      echo "---- tail $f" >&2
      tail -n 10 "$f" >&2
    fi
  done
  exit 1
}

# --- 1. packages -----------------------------------------------------------
missing=()
command -v parallel >/dev/null 2>&1 || missing+=(parallel)
command -v munged >/dev/null 2>&1 || missing+=(munge)
for b in slurmctld slurmd sbatch srun squeue sinfo scontrol; do
  if ! command -v "$b" >/dev/null 2>&1; then
    missing+=(slurm-wlm)
    break
  fi
done
if ((${#missing[@]})); then
  echo "== installing ${missing[*]}"
  # Package post-install scripts would try to start daemons (without a config);
  # block that with a temporary policy-rc.d unless one exists already.
  policy_added=
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    policy_added=1
  fi
  apt_ok=
  for attempt in 1 2 3; do
    if { apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}"; } >"$WORK/apt.log" 2>&1; then
      apt_ok=1
      break
    fi
    ((attempt < 3)) && sleep 5
  done
  if [[ -z $apt_ok ]]; then
    [[ -n $policy_added ]] && rm -f /usr/sbin/policy-rc.d
    tail -n 40 "$WORK/apt.log" >&2
    die "apt-get install ${missing[*]}"
  fi
  [[ -n $policy_added ]] && rm -f /usr/sbin/policy-rc.d
fi

# GNU parallel: silence the citation notice for this user.
mkdir -p "$HOME/.parallel"
touch "$HOME/.parallel/will-cite"
parallel --version >/dev/null 2>&1 || die "parallel --version does not run"

# --- 2. munge --------------------------------------------------------------
munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

if ! munge_ok; then
  echo "== starting munged"
  getent passwd munge >/dev/null || die "no 'munge' user (munge package broken?)"
  install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
  install -d -o munge -g munge -m 0755 /run/munge
  if [[ ! -s $MUNGE_KEY ]]; then
    if command -v mungekey >/dev/null 2>&1; then
      mungekey --create --keyfile="$MUNGE_KEY" --force >/dev/null 2>&1
    else
      dd if=/dev/urandom of="$MUNGE_KEY" bs=1 count=1024 status=none
    fi
  fi
  chown munge:munge "$MUNGE_KEY"
  chmod 0400 "$MUNGE_KEY"
  # A stale pid/socket from a dead munged makes the new one refuse to start.
  if ! pgrep -x munged >/dev/null 2>&1; then
    rm -f /run/munge/munged.pid /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock
  fi
  runuser -u munge -- /usr/sbin/munged ||
    die "munged did not start"
  for _ in $(seq 1 50); do
    munge_ok && break
    sleep 0.2
  done
  munge_ok || die "munge -n | unmunge does not work"
fi

# --- 3. slurm configuration and daemons -----------------------------------
# State as sinfo shows it; a trailing '*' means slurmctld gets no answer from slurmd.
node_state() { sinfo -h -n "$NODE" -o %T 2>/dev/null | head -n 1; }
node_usable() { [[ $1 =~ ^(idle|mixed|allocated|completing)-?$ ]]; }
# slurmctld only notices a dead slurmd after SlurmdTimeout, so look at the processes too.
daemons_running() { pgrep -x slurmctld >/dev/null 2>&1 && pgrep -x slurmd >/dev/null 2>&1; }

state=$(node_state || true)
if [[ -s $CONF ]] && daemons_running && node_usable "$state"; then
  echo "== slurm already up ($NODE $state)"
else
  echo "== configuring slurm (node $NODE)"
  cpus=$(nproc)
  mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
  # Modest, and never above what slurmd will find (or the node is drained).
  real_mem=$((mem_mb / 2))
  ((real_mem > 2048)) && real_mem=2048
  ((real_mem < 100)) && real_mem=100

  # srun and slurmd talk back to this host by name; make sure the name resolves.
  if ! getent hosts "$NODE" >/dev/null 2>&1; then
    echo "127.0.0.1 $NODE" >>/etc/hosts
  fi

  install -d -m 0755 /etc/slurm "$LOGDIR" /var/spool/slurmctld /var/spool/slurmd /run/slurm
  cat >"$WORK/slurm.conf" <<EOF
# Written by .ci/cluster-up.sh: single-node CI cluster on localhost.
ClusterName=ci
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
DependencyParameters=kill_invalid_depend
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=$CTLD_LOG
SlurmdLogFile=$SLURMD_LOG
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=60
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real_mem State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  # Slurm 22.05's slurmd always loads a cgroup plugin, even with the
  # proctrack/task plugins above (CgroupPlugin=disabled only came in 23.02);
  # autodetect picks cgroup/v1 or cgroup/v2, which only has to initialise.
  cat >"$WORK/cgroup.conf" <<EOF
# Written by .ci/cluster-up.sh: cgroups are not used for jobs on this CI node.
CgroupPlugin=autodetect
EOF
  changed=
  if ! cmp -s "$WORK/slurm.conf" "$CONF"; then
    install -m 0644 "$WORK/slurm.conf" "$CONF"
    changed=1
  fi
  if ! cmp -s "$WORK/cgroup.conf" "$CGROUP_CONF"; then
    install -m 0644 "$WORK/cgroup.conf" "$CGROUP_CONF"
    changed=1
  fi

  # A daemon that runs with another config is restarted; one that runs with
  # this config is left alone.
  stop_daemon() { # name pidfile
    local pid
    pid=$(cat "$2" 2>/dev/null || true)
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" || true
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
      if kill -0 "$pid" 2>/dev/null; then
        kill -9 "$pid" 2>/dev/null || true
        sleep 0.5
      fi
    fi
    if pgrep -x "$1" >/dev/null 2>&1; then
      die "a $1 not started by this script is running; stop it first"
    fi
  }
  if [[ -n $changed ]]; then
    stop_daemon slurmd /run/slurm/slurmd.pid
    stop_daemon slurmctld /run/slurm/slurmctld.pid
  fi

  if ! pgrep -x slurmctld >/dev/null 2>&1; then
    echo "== starting slurmctld"
    slurmctld >>"$WORK/slurmctld.out" 2>&1 ||
      { cat "$WORK/slurmctld.out" >&2; die "slurmctld did not start"; }
  fi
  ctld_up=
  for _ in $(seq 1 $((WAIT_SECS * 2))); do
    if scontrol ping 2>/dev/null | grep -q 'is UP'; then
      ctld_up=1
      break
    fi
    sleep 0.5
  done
  [[ -n $ctld_up ]] || die "slurmctld does not answer (scontrol ping)"

  if ! pgrep -x slurmd >/dev/null 2>&1; then
    echo "== starting slurmd"
    slurmd >>"$WORK/slurmd.out" 2>&1 ||
      { cat "$WORK/slurmd.out" >&2; die "slurmd did not start"; }
  fi

  echo "== waiting for node $NODE to be idle (up to ${WAIT_SECS}s)"
  deadline=$((SECONDS + WAIT_SECS))
  state=
  while ((SECONDS < deadline)); do
    state=$(node_state || true)
    node_usable "$state" && break
    case $state in
      down* | drain* | fail*)
        scontrol update nodename="$NODE" state=resume >/dev/null 2>&1 || true
        ;;
    esac
    sleep 1
  done
  node_usable "$state" || die "node $NODE is '${state:-unknown}', not idle, after ${WAIT_SECS}s"
fi

# --- 4. prove it works -----------------------------------------------------
# Jobs run in $WORK (their working directory and slurm-*.out go there, not into
# the caller's directory); everything runs as root here.
cd "$WORK"
tmo=$((WAIT_SECS * 2))

echo "== check: srun -N1 true"
timeout "$tmo" srun -N1 true || die "srun -N1 true"

echo "== check: sbatch --wait --array=1-3"
rm -f /tmp/cluster-up-check.{1,2,3}
# shellcheck disable=SC2016 # expanded by the job, not here
timeout "$tmo" sbatch --quiet --wait --array=1-3 -o "$WORK/array-%A_%a.out" \
  --wrap 'echo $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT > /tmp/cluster-up-check.$SLURM_ARRAY_TASK_ID' ||
  die "array job failed"
for k in 1 2 3; do
  [[ $(cat /tmp/cluster-up-check.$k 2>/dev/null) == "$k 3" ]] ||
    die "array task $k: /tmp/cluster-up-check.$k is '$(cat /tmp/cluster-up-check.$k 2>/dev/null)', not '$k 3'"
done
rm -f /tmp/cluster-up-check.{1,2,3}

echo "== check: dependent job (afterok on an array)"
# shellcheck disable=SC2016
jid=$(sbatch --parsable --array=1-3 -o "$WORK/dep-%A_%a.out" \
  --wrap 'sleep 1; echo $SLURM_ARRAY_TASK_ID > '"$WORK"'/dep.$SLURM_ARRAY_TASK_ID') ||
  die "sbatch --parsable --array"
jid=${jid%%;*}
timeout "$tmo" sbatch --quiet --wait --dependency="afterok:$jid" -o "$WORK/after-%j.out" \
  --wrap 'cat '"$WORK"'/dep.1 '"$WORK"'/dep.2 '"$WORK"'/dep.3 > '"$WORK"'/after' ||
  die "dependent job failed (array job $jid)"
# (sbatch --wait exits 0 even for a job cancelled as DependencyNeverSatisfied,
# so the job's effect is what counts.)
[[ $(paste -sd ' ' "$WORK/after" 2>/dev/null) == "1 2 3" ]] ||
  die "dependent job did not run after the array, or saw '$(cat "$WORK/after" 2>/dev/null)'"

echo "== cluster up: $(sinfo -h -o '%P %D %T %N' | head -n 1); $(sinfo -V)"
