package lab

// The page's words for the selectors and their parameters: what each does,
// in a sentence a person who is not a numerical analyst can read. The
// formulas and the papers come from the workers (api.MethodInfo) and are
// shown behind a details toggle.

// Guide is the short guide to choosing a selector, paragraph by paragraph.
var Guide = []string{
	"Filters score each feature on its own — how differently it behaves from class to class. They take seconds, even on tens of thousands of features, and are a good first look; they cannot see features that only help together, and they keep near-copies of a good feature.",
	"Sparse models fit one model on all the features at once and keep those it gives weight to. They take longer, but they weigh features against each other, so they tend to pick fewer, less redundant ones.",
	"A good start: one filter and one sparse model side by side — fisher and rfs — evaluated by cross-validation. If they agree on their top features, those features are a solid lead; the comparison under the results shows where they differ.",
}

// Recommended are the selectors of the recommended start.
var Recommended = []string{"fisher", "rfs"}

// plain is each method's sentence in words.
var plain = map[string]string{
	"fisher":    "How far apart the class averages of a feature are, compared with its spread within each class.",
	"fstat":     "The analysis-of-variance F test of each feature against the class, with a p-value.",
	"ttest":     "Welch's t test of each feature between two classes (or each class against the rest), with a p-value.",
	"infogain":  "How much knowing a feature's value (in a few bins) tells about the class.",
	"relieff":   "How well a feature tells each sample from its nearest neighbours of other classes rather than of its own.",
	"mrmr":      "Picks features one by one: the most informative about the class, and least like those already picked.",
	"rfs":       "A sparse model robust to outlying samples (Nie et al. 2010): keeps the features it needs to predict every class.",
	"gsr":       "The general sparse model of Peng & Fan (2017): how robust to outliers (r) and how sparse (p) can be set.",
	"mtfs":      "A sparse least-squares model shared by all classes: keeps the features useful for predicting any of them.",
	"erfs":      "RFS with both its parts raised to a power p: p below 1 gives fewer features.",
	"rk1u":      "A least-squares model pushed to very few features (p below 1).",
	"dso":       "A sparse model that separates the classes with a margin, with no weight to tune (Peng & Fan 2016).",
	"exl21":     "A sparse model where features compete within each class, so each class gets features of its own (Ming & Ding 2019).",
	"elasso":    "The exclusive lasso: features compete within each class, with no penalty removing whole features.",
	"l20":       "A sparse model that keeps exactly at most K features (An, Dong & Qin 2021).",
	"topk":      "A model with exactly K features, fitted directly (Cai, Nie & Huang 2013).",
	"l1svm":     "Linear support vector machines pushed to use few features; a feature scores by its weights.",
	"stabsel":   "Runs another selector on many halves of the data and keeps the features it picks most of the time, with a bound on false picks.",
	"consensus": "One ranking agreed from several selectors' rankings, with a p-value per feature.",
}

// Plain is a method's sentence in words ("" for a method the page has no
// words for).
func Plain(method string) string { return plain[method] }

// paramWords is each parameter's line in words, by name (and by method
// where a name means different things).
var paramWords = map[string]string{
	"gamma":       "How strongly the model is pushed to use few features: larger keeps fewer.",
	"lambda":      "How strongly the model is pushed to use few features: larger keeps fewer.",
	"alpha":       "How strongly whole features are removed: larger keeps fewer.",
	"beta":        "How strongly features compete within each class: larger gives each class fewer.",
	"p":           "How sparse: 1 is the standard convex model; smaller keeps fewer features but may find a local answer.",
	"r":           "How robust to outlying samples: 2 is ordinary least squares, 1 is robust.",
	"C":           "How hard the machines try to classify every training sample: larger keeps more features.",
	"k":           "How many features it selects.",
	"bins":        "Into how many equal-sized groups each feature's values are cut.",
	"tol":         "How precisely the fit is finished: smaller is more precise and slower.",
	"eps":         "How precisely the fit is finished: smaller is more precise and slower.",
	"max_iter":    "The most steps the fit may take before it stops (with a warning).",
	"solver":      "Which algorithm computes the fit; they reach the same answer.",
	"criterion":   "How relevance and redundancy are combined: their difference (MID) or their ratio (MIQ).",
	"base":        "The selector run on each half of the data.",
	"q":           "How many top features are taken from each half's ranking.",
	"pairs":       "How many pairs of halves are drawn: more is steadier and slower.",
	"pi":          "How often a feature must be picked to count as stable (0.5 to 1).",
	"seed":        "Fixes the random halves, so that a run can be repeated exactly.",
	"aggregation": "How the rankings are combined: robust rank aggregation (with p-values) or the mean rank.",
}

// ParamWords is a parameter's line in words ("" when the page has none:
// its formula line is shown alone).
func ParamWords(method, param string) string {
	if method == "relieff" && param == "k" {
		return "How many nearest neighbours of each sample are compared."
	}
	if method == "mrmr" && param == "k" {
		return "How many features are picked one by one (0: all); the rest follow by relevance."
	}
	return paramWords[param]
}
