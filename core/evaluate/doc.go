// Package evaluate measures feature selectors as the papers do — accuracy
// of classifiers trained on the top-K features, over cross-validation or
// repeated holdout splits — without letting any test sample influence a
// ranking.
//
// # Plan, units, report
//
// A Plan (JSON) lists the methods (every registered selector is treated
// alike, through selection.Lookup, Spec.Resolve, Spec.New and
// Selector.Fit), the list of K, the classifiers, the protocol, the seed,
// the preprocessing and the tuning grids. New binds it to the data: it
// normalises the plan (every default written in, so that the normalised
// plan re-creates the run) and draws the splits.
//
// The work decomposes into independent units: unit u evaluates variant
// u / S on split u % S (S splits; a variant is a method with one setting
// of its parameters — a sweep gives several). RunUnit runs one unit alone,
// anywhere, in any order; Merge assembles the units of an api.Header into the
// api.Report. Run does both with a pool of goroutines; since every unit is
// deterministic, the report does not depend on the number of workers or on
// the order. A page can therefore spread the units over Web Workers and
// merge their results into exactly the report the command line prints.
//
// # What a unit does, and why it cannot leak
//
// A unit copies its training rows and its test rows out of the data as two
// separate matrices. Everything that learns — the preprocessing (z-score,
// min-max, the imputation of missing values by the training mean), the
// inner cross-validation that tunes parameters, the selector, the
// redundancy rate, the classifiers and the least-squares regression — is
// fitted by train, which receives the training copy only. The test copy is
// passed afterwards to the fitted models (fitted.test) and to nothing else.
//
// For each K a unit records the features used, the test accuracy of every
// classifier, the least-squares RMSE when the data have real-valued
// targets, the redundancy rate RED of the selected features on the
// training part (l20-nmapg §6.2) and the sparsity level of the weight
// matrix behind them; and for each fit of the selector its full ranking,
// scores, objective, iteration count, stop reason, per-iteration objective
// trace and fitting time. The report gives, per variant and K, the mean and
// the sample standard deviation over the splits, and keeps every unit.
//
// # Conventions
//
// Splits, inner folds and everything random come from the plan's seed,
// each from its own stream (see split.go). Stratified k-fold shuffles each
// class and deals the samples round-robin into the folds; repeated holdout
// puts round(f·m_k) samples of each class into training (at least one on
// each side when the class has two). Without a class label the samples are
// shuffled together.
//
// An embedded method with an integer parameter named k (a model with an
// ℓ2,0 constraint, as l20 and topk) is refitted for every K of the list
// with k = K; every other method is fitted once per unit and its top K are
// the first K of its ranking.
//
// Tuning: see Evaluation.tune. Selection parameters are tuned jointly with
// the first classifier's; the score is the mean inner accuracy over the
// inner folds and the K list.
package evaluate
