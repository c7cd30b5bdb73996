package selection

import "fmt"

// certGap is the relative duality gap a convex model's answer is certified
// to by default (Certificate.Gap ≤ certGap): the IRLS family's default
// solver stops on it where it can (certifiedStop); exl21 and elasso stop
// on their gap at tol.
const certGap = 1e-6

// uncertified returns the status of a fit of a convex model that stopped
// with status st at objective obj with certificate cert (nil: none could
// be made), and appends a note to notes when the gap is above certGap or
// there is none: Uncertified in place of Converged or MethodConverged (the
// stopping rule was met, the gap was not), any other status kept
// (IterationLimit, with the note). An answer away from the optimum is so
// never reported silently. A cancelled fit, or J = 0 (the gap is 0/0), is
// left as it is.
func uncertified(method string, cert *Certificate, obj float64, st Status, notes *[]string) Status {
	if obj == 0 || (cert != nil && cert.Gap <= certGap) || st == Cancelled {
		return st
	}
	if cert == nil {
		*notes = append(*notes, fmt.Sprintf("%s: no duality gap could be certified at the stop: the objective's distance from the optimum is not known; a smaller tol brings the answer closer", method))
	} else {
		*notes = append(*notes, fmt.Sprintf("%s: the certified duality gap at the stop is %.2g (relative), above 1e-6: the objective is at most that far above the optimum; a smaller tol (or a larger max_iter) brings the answer closer", method, cert.Gap))
	}
	if st == Converged || st == MethodConverged {
		return Uncertified
	}
	return st
}
