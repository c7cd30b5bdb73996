# Sourced by the scripts that read the shared datasets: sets data to the
# directory given ($1, may be empty), else $SPARSEFS_DATA, else the first
# shared/data found beside the repository or one of its parents; exits
# when there is none.
data=${1:-${SPARSEFS_DATA:-}}
if [ -z "$data" ]; then
	d=$(pwd)
	while [ "$d" != / ]; do
		if [ -d "$d/shared/data" ]; then data="$d/shared/data"; break; fi
		d=$(dirname "$d")
	done
fi
[ -n "$data" ] && [ -d "$data" ] || { echo "no shared/data found; pass DATA_DIR" >&2; exit 1; }
