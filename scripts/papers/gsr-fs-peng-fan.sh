#!/usr/bin/env bash
# Reproduce the experiments of gsr-fs-peng-fan (H. Peng & Y. Fan, "A general
# framework for sparsity regularized feature selection via iteratively
# reweighted least square minimization", AAAI 2017), documented in
# docs/papers/gsr-fs-peng-fan.md:
#
#   fig2    §5.1: 10-fold cross-validated RMSE of least squares on the top
#           200 features of GSR-FS with r = 2, 1, 0.5 (p = 1, λ = 1) on the
#           synthetic data (sparsefs synth: n = 2000, d1 = 100, d2 = 700,
#           c = 5) with 0, 1 % and 10 % outlier rows;
#   table2  §5.2 Table 2 and Fig. 3: 10 random 60/40 splits, a linear SVM on
#           the top 10 … 100 features of ReliefF, mRMR, MTFS, RFS, E-RFS
#           (p = 0.5), RK1U (p = 0.5) and GSR-FS (p = 1, 0.75, 0.5, 0.25),
#           with λ (10⁻³ … 10²), r (0.5, 1, 2) and C (10⁻³ … 10²) tuned by
#           inner cross-validation — the request of the page's preset
#           gsr-fs-peng-fan;
#   table3  §5.3 Table 3: the time of one fit of each selector on all the
#           samples of each dataset (sparsefs select; λ = 1, r = 2 for
#           GSR-FS, tolerance 10⁻⁴ on the objective's change, mRMR and
#           ReliefF stopping at 100 features).
#
#   scripts/papers/gsr-fs-peng-fan.sh [path/to/sparsefs]
#
# Environment (defaults: the paper's protocol):
#   PARTS     which experiments, default "fig2 table2 table3"
#   OUT       where the reports go (default: a temporary directory)
#   SEED      the seed of the synthetic data and of every split (default 1)
#   OUTLIERS  the outlier fractions of fig2 (default "0 0.01 0.1")
#   DATASETS  the datasets of table2/table3 (default: the closest at hand to
#             the paper's six: "Isolet USPS warpAR10P ORL warpPIE10P USPS49")
#             — USPS49 is USPS restricted to the digits 4 and 9, written to
#             OUT (the paper's MNIST 4-vs-9 subset is not at hand)
#   PRESET    the preset of table2 (default gsr-fs-peng-fan: tuned by inner
#             cross-validation; gsr-fs-peng-fan-fixed runs λ = 1, r = 1, C = 1)
#   WORKERS   units run at once (default 1: the machine is shared)
#   SPARSEFS_DATA  the shared datasets (default: a shared/data directory
#             found beside the repository)
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOTOOLCHAIN=go1.27.3 # the toolchain of build.sh
BIN=${1:-bin/sparsefs}
[ -x "$BIN" ] || go build -trimpath -o "$BIN" ./cmd/sparsefs
# shellcheck source=scripts/datadir.sh
. scripts/datadir.sh ""
DATA=$data
PARTS=${PARTS:-fig2 table2 table3}
OUT=${OUT:-$(mktemp -d)}
SEED=${SEED:-1}
OUTLIERS=${OUTLIERS:-0 0.01 0.1}
WORKERS=${WORKERS:-1}
mkdir -p "$OUT"
SUMMARY=scripts/papers/gsr-fs-peng-fan.py

if [[ " $PARTS " == *" fig2 "* ]]; then
	for a in $OUTLIERS; do
		f="$OUT/synth-a$a.csv"
		[ -s "$f" ] || "$BIN" synth -m 2000 -d1 100 -d2 700 -c 5 -outliers "$a" -seed "$SEED" -o "$f"
		[ -s "$OUT/fig2-a$a.json" ] && continue # kept from an interrupted run
		echo "gsr-fs-peng-fan: fig2, outliers $a" >&2
		"$BIN" eval -data "$f" -label none -targets y1,y2,y3,y4,y5 -methods gsr -param r=2,1,0.5 -param p=1 \
			-param lambda=1 -k 200 -cv 10 -seed "$SEED" -workers "$WORKERS" -progress off >"$OUT/fig2-a$a.json.tmp"
		mv "$OUT/fig2-a$a.json.tmp" "$OUT/fig2-a$a.json"
	done
	/usr/bin/python3 "$SUMMARY" fig2 "$OUT"/fig2-a*.json
fi

# The datasets of Table 2 at hand (the paper's → ours): ISOLET → Isolet
# (the 1560-sample ASU subset), SEMEION → USPS (16×16 handwritten digits),
# AR → warpAR10P (10 persons), ORL → ORL (32×32), CMU-PIE → warpPIE10P
# (10 persons), MNIST 4-vs-9 → USPS49 (the USPS digits 4 and 9).
DATASETS=${DATASETS:-Isolet USPS warpAR10P ORL warpPIE10P USPS49}
datafile() {
	if [ "$1" = USPS49 ]; then
		[ -s "$OUT/USPS49.csv.gz" ] || /usr/bin/python3 -c '
import gzip, sys
with gzip.open(sys.argv[1], "rt") as f, gzip.open(sys.argv[2], "wt") as g:
    g.write(f.readline())
    for line in f:
        if line.rstrip("\n").rsplit(",", 1)[1] in ("4", "9"):
            g.write(line)
' "$DATA/USPS.csv.gz" "$OUT/USPS49.csv.gz"
		echo "$OUT/USPS49.csv.gz"
	else
		echo "$DATA/$1.csv.gz"
	fi
}

PRESET=${PRESET:-gsr-fs-peng-fan}
if [[ " $PARTS " == *" table2 "* ]]; then
	for ds in $DATASETS; do
		report="$OUT/table2-$PRESET-$ds.json"
		[ -s "$report" ] && continue # kept from an interrupted run
		f=$(datafile "$ds")
		echo "gsr-fs-peng-fan: table2, $ds (preset $PRESET)" >&2
		# The page's preset PRESET, the same request as the page builds
		# (ui/lab/presets.json; "sparsefs presets" lists them).
		"$BIN" eval -preset "$PRESET" -data "$f" -seed "$SEED" -workers "$WORKERS" -progress off >"$report.tmp"
		mv "$report.tmp" "$report"
	done
	/usr/bin/python3 "$SUMMARY" table2 "$OUT"/table2-"$PRESET"-*.json
fi

# Table 3: one fit per selector on all the samples (the time of the fit
# alone, as the CLI reports it; reading the file is not counted).
if [[ " $PARTS " == *" table3 "* ]]; then
	{
		grep -m1 'model name' /proc/cpuinfo || true
		echo "cores: $(nproc)"
		echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	} >"$OUT/table3-machine.txt"
	for ds in $DATASETS; do
		f=$(datafile "$ds")
		while read -r label method params; do
			echo "gsr-fs-peng-fan: table3, $ds, $label" >&2
			p=()
			for kv in $params; do p+=(-param "$kv"); done
			# The processor time of the whole command (reading the file
			# included) beside the fit's own wall-clock seconds in the report.
			/usr/bin/time -f %U+%S -o "$OUT/table3-$ds-$label.cpu" \
				"$BIN" select -data "$f" -method "$method" "${p[@]}" -k 100 -workers 1 -progress off \
				>"$OUT/table3-$ds-$label.json"
		done <<-'LIST'
			relieff relieff
			mrmr mrmr k=100
			rfs rfs gamma=1 tol=1e-4
			erfs-p0.5 erfs p=0.5 lambda=1 tol=1e-4
			rk1u-p0.5 rk1u p=0.5 lambda=1 tol=1e-4
			gsr-p1 gsr r=2 p=1 lambda=1 tol=1e-4
			gsr-p0.75 gsr r=2 p=0.75 lambda=1 tol=1e-4
			gsr-p0.5 gsr r=2 p=0.5 lambda=1 tol=1e-4
			gsr-p0.25 gsr r=2 p=0.25 lambda=1 tol=1e-4
		LIST
	done
	echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/table3-machine.txt"
	/usr/bin/python3 "$SUMMARY" table3 "$OUT/table3-machine.txt" "$OUT"/table3-*.json
fi
