#!/bin/sh
# The remote shell of the MPI network lab (tools/netlab_mpi.sh): Open MPI's rsh launcher
# (`--mca plm_rsh_agent`) runs it as `AGENT HOST COMMAND WORD...` to start its daemon on
# HOST, as it would run ssh. HOST is a lab namespace; the command runs inside it, in a UTS
# namespace of its own whose host name is HOST, so that MPI's processor name (and the
# matrix's host column) is the namespace's name.
#
# No word is ever parsed by a shell. ssh would join the words and hand them to the remote
# shell, so Open MPI writes them for one: a leading space on the command's first word, and
# values in double quotes ("3.0;tcp://10.199.1.1:4000"). This agent undoes exactly that
# and nothing more: each word loses its leading and trailing spaces and one pair of double
# quotes around it; `$`, backquotes, `;` and the rest stay as they are. Then the words are
# executed as given.
#
# Usage (by Open MPI; and by netlab_mpi.sh to start mpirun on the first host):
#   netlab_rsh_agent.sh HOST COMMAND [WORD...]
# HOST must be a lab host's name (tbh<digits>-<digits>); anything else is refused, exit 2.
set -eu

if [ "${1:-}" = --named ]; then
  # Second stage, inside HOST's network namespace and a new UTS namespace.
  host=$2
  shift 2
  hostname "$host"
  exec "$@"
fi

[ $# -ge 2 ] || { echo "netlab_rsh_agent: usage: HOST COMMAND [WORD...]" >&2; exit 2; }
host=$1
shift
case $host in
  tbh[0-9]*-[0-9]*) ;;
  *) echo "netlab_rsh_agent: '$host' is not a lab host (tbh<n>-<id>)" >&2; exit 2 ;;
esac
case $host in
  *[!a-z0-9-]*) echo "netlab_rsh_agent: '$host' is not a lab host (tbh<n>-<id>)" >&2; exit 2 ;;
esac

for word do
  shift
  word=${word#"${word%%[! ]*}"}  # leading spaces
  word=${word%"${word##*[! ]}"}  # trailing spaces
  case $word in
    \"*\") word=${word#\"}; word=${word%\"} ;;
  esac
  set -- "$@" "$word"
done
exec ip netns exec "$host" unshare --uts -- "$0" --named "$host" "$@"
