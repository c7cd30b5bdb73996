// Package classify holds the classifiers that evaluate a feature subset —
// a linear support vector machine and k-nearest neighbours — the ordinary
// least-squares regression that evaluates one on real-valued targets, and
// the L1-regularised squared-hinge SVM solver behind the l1svm selector.
//
// # Conventions
//
// Training data are an m×d matrix (samples in rows) and a class index per
// sample in 0…c−1; a class may be absent from a training part (a small
// class in a fold), and is then never predicted. Every solver is
// deterministic: the same data give the same model, bit for bit.
//
// A Config names a classifier and its parameters (JSON-serialisable, as
// evaluation requests carry it); Config.Train fits it and returns a Model.
// Reaching an iteration limit is not an error: the model says so in its
// Notes.
package classify
