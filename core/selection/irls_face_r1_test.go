package selection

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// r1Models are the models of r = p = 1 with their label codings: rfs and
// gsr (λ = 1).
var r1Models = []struct {
	name   string
	coding Coding
}{{"rfs", OneHot}, {"gsr/r=1,p=1", PlusMinus}}

// On the two-class microarray sets (m < N, every residual row fitted
// exactly, the optimum nearly a vertex of |S*| = m or m + 1 rows) the
// minimum on the face of exact fit (faceR1) certifies the answer at the
// change rule's stop: rfs (γ = 1) and gsr (r = p = 1, λ = 1) must stop
// converged within 150 iterations (the change rule stops after 44–118; the
// polish counts one more) with a certified gap ≤ 10⁻¹² (measured
// 4·10⁻¹⁵–1.2·10⁻¹⁴ natively and in wasm), where before
// rfs needed 849 iterations on ALLAML, 152 on colon and 168 on
// Prostate_GE, ran to its 1000-iteration limit on leukemia (gap
// 1.2·10⁻⁶), and gsr needed 919, 629 and 948 on ALLAML, colon and leukemia
// and stopped uncertified on Prostate_GE (gap 1.1·10⁻² after 500). The
// certificate is checked independently of the engine: the dual point is
// feasible and of the reported value (gonum's products, checkDualPoint)
// and the reported J is J(W) recomputed with gonum, so that
// J − J* ≤ gap·J whatever the engine did; and the answer fits every
// sample exactly (‖ZW − Y‖ row norms ≤ 10⁻⁹ of the rms row of Y), as
// the optimum does there.
func TestR1FaceCertifiesTwoClassSets(t *testing.T) {
	for _, file := range []string{"ALLAML.csv.gz", "colon.csv.gz", "leukemia.csv.gz", "Prostate_GE.csv.gz"} {
		p := irlsRealProblem(t, file)
		for _, c := range r1Models {
			name := file + " " + c.name
			z, y := p.Design(), p.Response(c.coding)
			sol := checkR1Certified(t, name, z, y, c.coding, 1, 1e-12, 150)
			if sol == nil {
				continue
			}
			var e mat.Dense
			e.Mul(z, mat.NewDense(sol.nr, sol.c, sol.w))
			e.Sub(&e, y)
			m, _ := y.Dims()
			rms := mat.Norm(y, 2) / math.Sqrt(float64(m))
			for i := 0; i < m; i++ {
				if n := mat.Norm(e.RowView(i), 2); n > 1e-9*rms {
					t.Errorf("%s: residual row %d of norm %.3g, want exact fit", name, i, n)
				}
			}
		}
	}
}

// On the multi-class microarray and image sets whose optimum fits every
// sample exactly (m < N), the minimum on the face of exact fit certifies
// the answer by its Woodbury Newton steps (irls_face_hess.go): rfs (γ = 1)
// and gsr (r = p = 1, λ = 1) on lymphoma (96 × 4026, 9 classes; the face
// holds ~440 rows, 3000–4000 unknowns for the dense Newton system) and
// nci9 (60 × 9712, 9 classes) must stop converged with a certified gap ≤
// 10⁻⁶, where before they stopped converged_uncertified with gaps
// 4.1·10⁻³–6.8·10⁻³ (the face's dense system was beyond its limits). So
// must they on warpPIE10P (210 × 2420, 10 classes), whose optimum leaves
// 4 of the 210 residual rows nonzero: those rows join the face as rows of
// the reformulation's U (min λΣ‖wʲ‖ + Σ‖eᵢ‖ s.t. Z_S W_S − E_R = Y, R the
// residual rows not fitted; before, gaps 7.6·10⁻³ and 4.8·10⁻³ and no
// face at all). And so must rfs with γ = 10 on GLIOMA, whose
// iterate fits exactly some samples the optimum does not (their dual rows
// lie outside the unit ball at the face's dual point): those residual
// rows must join the face (before, it ended at a face minimum 1.6·10⁻⁷
// above the optimum with a gap of 1.6·10⁻³). So must rfs and gsr on ORL
// (400 × 1024, 40 classes), whose face needs 13–24 Newton steps of
// ~8·10⁸ multiply-adds (before, with 10¹⁰ allowed, it did not run: gaps
// 1.3·10⁻³ and 1.0·10⁻³). The
// certificate is checked independently of the engine as on the two-class
// sets: the dual point feasible and of the reported value (gonum's
// products), the reported J equal to J(W) recomputed with gonum, so that
// J − J* ≤ gap·J by weak duality whatever the engine did.
func TestR1FaceCertifiesMultiClassSets(t *testing.T) {
	for _, file := range []string{"lymphoma.csv.gz", "nci9.csv.gz", "warpPIE10P.csv.gz", "ORL.csv.gz"} {
		p := irlsRealProblem(t, file)
		for _, c := range r1Models {
			name := file + " " + c.name
			z, y := p.Design(), p.Response(c.coding)
			checkR1Certified(t, name, z, y, c.coding, 1, certGap, DefaultMaxIterations)
		}
	}
	p := irlsRealProblem(t, "GLIOMA.csv.gz")
	checkR1Certified(t, "GLIOMA rfs γ = 10", p.Design(), p.Response(OneHot), OneHot, 10, certGap, DefaultMaxIterations)
}

// checkR1Certified runs the model of r = p = 1 with λ = lambda to its
// certified stop and checks that it converged within maxIter iterations
// with a certified gap ≤ maxGap, its dual point feasible and of the
// reported value (gonum's products), and its reported J equal to J(W)
// recomputed with gonum. It returns the solve, nil where it did not
// converge so.
func checkR1Certified(t *testing.T, name string, z, y *mat.Dense, coding Coding, lambda, maxGap float64, maxIter int) *irls {
	t.Helper()
	sol, cert, run := certifiedR1Lambda(t, z, y, coding, lambda)
	if cert == nil || run.Status != Converged || cert.Gap > maxGap || run.Iterations > maxIter {
		t.Errorf("%s: status %s after %d iterations, certificate %+v: want converged within %d iterations, gap ≤ %g", name, run.Status, run.Iterations, cert, maxIter, maxGap)
		return nil
	}
	checkDualPoint(t, name, z, y, lambda, sol.certPoint, cert.Dual, sol.obj)
	if j := exactObjective(z, y, mat.NewDense(sol.nr, sol.c, sol.w), 1, 1, lambda); math.Abs(j-sol.obj) > 1e-12*j {
		t.Errorf("%s: reported J %.15g, J(W) %.15g", name, sol.obj, j)
	}
	t.Logf("%s: %d iterations, gap %.2g, support %d, %d Newton steps", name, run.Iterations, cert.Gap, cert.Support, cert.NewtonSteps)
	return sol
}
