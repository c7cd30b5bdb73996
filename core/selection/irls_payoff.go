package selection

// irlsMaxSlowBackoff bounds the pause after accelerated steps in a row
// that were kept but slower than the plain step before them (see payOff):
// after the k-th, 2^k − 1 plain steps (at most 2^bound − 1).
const irlsMaxSlowBackoff = 10

// irlsPayFraction: an accelerated step pays when it decreases J by at
// least this fraction of the last plain step's decrease.
const irlsPayFraction = 0.5

// irlsTail is the relative decrease of J by a plain step at or below which
// the iteration is in its tail, where payOff applies. Above it (the
// default tol's range) an accelerated step slower than the plain one
// before it is common and the extrapolation still pays over the next
// steps: backing off there changed the paths at the default tol, stopping
// ALLAML 10 times further from the optimum (2.2·10⁻⁵ against 2.3·10⁻⁶)
// and the third fold of the demo, in wasm, with a rise of J by 6·10⁻¹⁰
// in a plain step.
const irlsTail = 1e-8

// payOff is the safeguard of the accelerated iteration's tail against steps
// that do not pay, after an accelerated step was kept with decrease dec of
// J. The step is kept (J did not rise), but when, in the tail (irlsTail),
// it decreased J by less than
// irlsPayFraction of the last plain step's decrease (plainDec), the
// extrapolation is not paying: the plain step it replaced would have done
// better, and a run of such steps makes the accelerated iteration slower
// than Algorithm 1 (ALL B-vs-T at tol 10⁻¹²: 44,732 iterations against
// 19,453, issue 15). After the k-th such step in a row the iteration takes
// 2^k − 1 plain steps (at most 2^irlsMaxSlowBackoff − 1) before
// extrapolating again, so that where the acceleration keeps failing to
// pay the iteration is Algorithm 1 but for a number of steps logarithmic
// in its length; a step that pays ends the run.
func (s *irls) payOff(dec float64) {
	if s.plainDec > 0 && s.plainDec <= irlsTail*s.obj && dec < irlsPayFraction*s.plainDec {
		s.slow++
		s.skip = max(s.skip, 1<<min(s.slow, irlsMaxSlowBackoff)-1)
		return
	}
	s.slow = 0
}
