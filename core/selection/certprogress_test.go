package selection

import (
	"context"
	"testing"

	"sparsefs/api"
)

// progressLog records the progress a fit reports.
type progressLog struct{ reports []Progress }

func (l *progressLog) settings() *Settings {
	return &Settings{Progress: func(p Progress) { l.reports = append(l.reports, p) }}
}

// checkCertifying checks the reports a fit made while it certified its
// answer (api.PhaseCertifying) and returns the most steps one certificate
// reported: each certificate reports at once (step 0), then after each of
// its steps (1, 2, … in turn), at the iteration and objective where the
// iterations stopped (or paused), which is one the fit reached.
func checkCertifying(t *testing.T, what string, reports []Progress, res *Result) int {
	t.Helper()
	most := 0
	var prev *Progress
	for i := range reports {
		p := &reports[i]
		if p.Phase != api.PhaseCertifying {
			if p.Phase != "" || p.Steps != 0 {
				t.Errorf("%s: report %+v has a phase or steps", what, *p)
			}
			prev = nil
			continue
		}
		switch {
		case p.Iteration < 1 || p.Iteration > res.Iterations:
			t.Fatalf("%s: certifying at iteration %d of %d", what, p.Iteration, res.Iterations)
		case prev == nil && p.Steps != 0:
			t.Fatalf("%s: a certificate's first report says step %d", what, p.Steps)
		case prev != nil && (p.Steps != prev.Steps+1 || p.Iteration != prev.Iteration || p.Objective != prev.Objective):
			t.Fatalf("%s: report %+v after %+v", what, *p, *prev)
		}
		most = max(most, p.Steps)
		prev = p
	}
	return most
}

// While rfs certifies its answer on the digits demo (the smoothed Newton
// minimum, after its iterations: TestIRLSR1CertifiesTall), it reports
// each of its steps, at least as many as the certificate counts; a page or
// a terminal would otherwise show the last iteration while the time runs
// on (COIL20: minutes in a browser).
func TestCertifyingIsReported(t *testing.T) {
	var log progressLog
	res, err := RFS{Gamma: 1}.Fit(context.Background(), demoProblem(t, "digits.csv.gz"), log.settings())
	if err != nil {
		t.Fatal(err)
	}
	if res.Certificate == nil || !res.Certificate.Polished {
		t.Fatalf("no smoothed minimum: certificate %+v", res.Certificate)
	}
	steps := checkCertifying(t, "rfs digits", log.reports, res)
	if steps == 0 || steps < res.Certificate.NewtonSteps {
		t.Errorf("%d steps reported, the certificate counts %d Newton steps", steps, res.Certificate.NewtonSteps)
	}
	t.Logf("rfs digits: %d iterations, %d steps reported, %d Newton steps", res.Iterations, steps, res.Certificate.NewtonSteps)
}
