# The shared part of the papers' scripts, sourced from the repository's
# root after the script has set BIN (the CLI), DATASETS and SEEDS: it
# builds BIN if it is missing, finds the shared datasets ($data), and sets
# OUT (default a temporary directory), WORKERS (default 2) and FIGURES
# (default docs/papers/figures).
export GOTOOLCHAIN=go1.27.3 # the toolchain of build.sh
[ -x "$BIN" ] || go build -trimpath -o "$BIN" ./cmd/sparsefs
# shellcheck source=scripts/datadir.sh
. scripts/datadir.sh ""
OUT=${OUT:-$(mktemp -d)}
WORKERS=${WORKERS:-2}
FIGURES=${FIGURES:-docs/papers/figures}
mkdir -p "$FIGURES"

# run_preset PRESET DIR runs PRESET on each dataset of $DATASETS and each
# fold seed of $SEEDS, writing DIR/DATASET-seedS.json; reports already
# there (from an interrupted run) are kept.
run_preset() {
	local preset=$1 dir=$2 ds seed
	mkdir -p "$dir"
	for ds in $DATASETS; do
		for seed in $SEEDS; do
			[ -s "$dir/$ds-seed$seed.json" ] && continue
			echo "$preset: $ds, seed $seed" >&2
			eval_preset "$preset" "$data/$ds.csv.gz" "$seed" "$dir/$ds-seed$seed.json"
		done
	done
}

# eval_preset PRESET DATAFILE SEED OUTFILE runs `$BIN eval` with the
# request the page builds for PRESET (ui/lab's presets.json) on DATAFILE
# with fold seed SEED, $WORKERS units at once, at low priority, and writes
# the JSON report to OUTFILE.
eval_preset() {
	local preset=$1 file=$2 seed=$3 out=$4
	nice -n 10 "$BIN" eval -data "$file" -preset "$preset" -seed "$seed" -workers "$WORKERS" -progress off >"$out.tmp"
	mv "$out.tmp" "$out"
}

# leaky_preset PRESET DIR runs PRESET's experiment with the leak on each
# dataset of $DATASETS: each method variant of the preset selects once on
# ALL the samples (sparsefs select; l20 and topk once for every K, as they
# are fitted for a given K), and only the classifiers are cross-validated
# on those features (sparsefs eval -features) with the preset's classifiers
# and folds, for each seed of $SEEDS. Reports:
# DIR/leaky-DATASET-METHOD[~NAME=VALUE…][-kK]-seedS.json.
leaky_preset() {
	local preset=$1 dir=$2 ds name params v k ks kmax cls tag sel evk suffix seed f
	mkdir -p "$dir/select"
	for ds in $DATASETS; do
		# The preset's K, classifiers and folds on these data: the plan
		# the page builds (eval -preset -describe).
		"$BIN" eval -preset "$preset" -data "$data/$ds.csv.gz" -describe -progress off >"$dir/select/$ds-plan.json"
		ks=$(/usr/bin/python3 scripts/papers/presetflags.py -klist "$dir/select/$ds-plan.json")
		kmax=${ks##* }
		mapfile -t cls < <(/usr/bin/python3 scripts/papers/presetflags.py -protocol "$dir/select/$ds-plan.json")
		echo "$preset: $ds, each method selecting on all samples (leaky comparison)" >&2
		/usr/bin/python3 scripts/papers/presetflags.py -variants "$preset" | while read -r name params; do
			local pflags=()
			tag=$name
			for v in $params; do
				pflags+=(-param "$v")
				[[ $v == k=* ]] || tag="$tag~$v"
			done
			# Jobs "SELECT-K EVAL-K SUFFIX": a fit for every K, or one ranking
			# whose prefixes are evaluated.
			if [ "$name" = l20 ] || [ "$name" = topk ]; then
				for k in $ks; do echo "$k $k -k$k"; done
			else
				echo "$kmax ${ks// /,} -"
			fi | while read -r sel evk suffix; do
				[ "$suffix" = - ] && suffix=""
				f="$dir/select/$ds-$tag$suffix.json"
				[ -s "$f" ] || nice -n 10 "$BIN" select -data "$data/$ds.csv.gz" -method "$name" ${pflags[@]+"${pflags[@]}"} \
					-k "$sel" -progress off >"$f"
				for seed in $SEEDS; do
					[ -s "$dir/leaky-$ds-$tag$suffix-seed$seed.json" ] && continue
					nice -n 10 "$BIN" eval -data "$data/$ds.csv.gz" "${cls[@]}" -features "$(selected "$f")" -k "$evk" \
						-seed "$seed" -progress off >"$dir/leaky-$ds-$tag$suffix-seed$seed.json"
				done
			done
		done
	done
}

# selected REPORT prints the "selected" features of a `sparsefs select`
# report, comma-separated.
selected() {
	/usr/bin/python3 -c 'import json,sys; print(",".join(map(str, json.load(open(sys.argv[1]))["selected"])))' "$1"
}
