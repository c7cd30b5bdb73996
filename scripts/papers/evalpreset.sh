# Sourced by the papers' scripts (which set BIN, SEEDS and WORKERS).
#
# eval_preset PRESET DATAFILE SEED OUTFILE runs `$BIN eval` with the request the page builds for PRESET (ui/lab's
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

# leaky_preset PRESET DATAFILE DATASET DIR runs PRESET's experiment with
# the leak: each method variant of the preset selects once on ALL the
# samples (sparsefs select; l20 and topk once for every K, as they are
# fitted for a given K), and only the classifiers are cross-validated on
# those features (sparsefs eval -features) with the preset's classifiers
# and folds, for each seed of $SEEDS. Reports:
# DIR/leaky-DATASET-METHOD[~NAME=VALUE…][-kK]-seedS.json.
leaky_preset() {
	local preset=$1 file=$2 ds=$3 dir=$4 name params v k feats f seed tag ks kmax all cls i
	ks=$(/usr/bin/python3 scripts/papers/presetflags.py -klist "$preset")
	kmax=${ks##* }
	# The preset's classifiers and folds, without its methods and K.
	mapfile -t all < <(/usr/bin/python3 scripts/papers/presetflags.py "$preset")
	cls=()
	for ((i = 0; i < ${#all[@]}; i += 2)); do
		case ${all[i]} in -classifier | -C | -neighbors | -cv | -holdout) cls+=("${all[i]}" "${all[i + 1]}") ;; esac
	done
	mkdir -p "$dir/select"
	/usr/bin/python3 scripts/papers/presetflags.py -variants "$preset" | while read -r name params; do
		local pflags=()
		tag=$name
		for v in $params; do
			pflags+=(-param "$v")
			[[ $v == k=* ]] || tag="$tag~$v"
		done
		if [ "$name" = l20 ] || [ "$name" = topk ]; then
			for k in $ks; do
				f="$dir/select/$ds-$tag-k$k.json"
				[ -s "$f" ] || nice -n 10 "$BIN" select -data "$file" -method "$name" ${pflags[@]+"${pflags[@]}"} -k "$k" -progress off >"$f"
				feats=$(selected "$f")
				for seed in $SEEDS; do
					[ -s "$dir/leaky-$ds-$tag-k$k-seed$seed.json" ] && continue
					nice -n 10 "$BIN" eval -data "$file" "${cls[@]}" -features "$feats" -k "$k" -seed "$seed" -progress off >"$dir/leaky-$ds-$tag-k$k-seed$seed.json"
				done
			done
		else
			f="$dir/select/$ds-$tag.json"
			[ -s "$f" ] || nice -n 10 "$BIN" select -data "$file" -method "$name" ${pflags[@]+"${pflags[@]}"} -k "$kmax" -progress off >"$f"
			feats=$(selected "$f")
			for seed in $SEEDS; do
				[ -s "$dir/leaky-$ds-$tag-seed$seed.json" ] && continue
				nice -n 10 "$BIN" eval -data "$file" "${cls[@]}" -features "$feats" -k "${ks// /,}" -seed "$seed" -progress off >"$dir/leaky-$ds-$tag-seed$seed.json"
			done
		fi
	done
}

# selected REPORT prints the "selected" features of a `sparsefs select`
# report, comma-separated.
selected() {
	/usr/bin/python3 -c 'import json,sys; print(",".join(map(str, json.load(open(sys.argv[1]))["selected"])))' "$1"
}
