# Sourced by the papers' scripts: eval_preset PRESET DATAFILE SEED OUTFILE
# runs `$BIN eval` with the request the page builds for PRESET (ui/lab's
# presets.json) on DATAFILE with fold seed SEED, $WORKERS units at once,
# at low priority, and writes the JSON report to OUTFILE. A CLI with
# `eval -preset` builds the request itself; an older one gets the same
# flags from scripts/papers/presetflags.py.
eval_preset() {
	local preset=$1 file=$2 seed=$3 out=$4 flags
	if "$BIN" eval -h 2>&1 | grep -q -- '-preset'; then
		flags=(-preset "$preset")
	else
		mapfile -t flags < <(/usr/bin/python3 scripts/papers/presetflags.py "$preset")
	fi
	nice -n 10 "$BIN" eval -data "$file" "${flags[@]}" -seed "$seed" -workers "$WORKERS" -progress off >"$out.tmp"
	mv "$out.tmp" "$out"
}
